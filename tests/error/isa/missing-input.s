; RUN: asc-as missing-input-absent.s -o /dev/null
; The input file does not exist.
