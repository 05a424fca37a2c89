; RUN: asc-as %s -o /dev/null
    wait_flag MTE2, V, 8
