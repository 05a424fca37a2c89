; RUN: asc-as %s -o /dev/null
    end x1
