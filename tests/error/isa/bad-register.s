; RUN: asc-as %s -o /dev/null
    li x32, 7
