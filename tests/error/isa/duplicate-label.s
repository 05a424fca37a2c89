; RUN: asc-as %s -o /dev/null
loop:
    end
loop:
    end
