; RUN: asc-as %s -o /dev/null
    set_flag ALL, V, 0
