; RUN: asc-as %s -o no-such-dir/out.bin
; The output folder does not exist; nothing is left behind.
    end
