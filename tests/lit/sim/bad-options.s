; Options out of range are one-line errors, not an attempt to allocate or launch them.
; RUN: not %asc-sim %s --gm-size 0xffffffffffffffff 2>&1 | FileCheck %s --check-prefix=GM
; RUN: not %asc-sim %s --block-dim 2147483647 2>&1 | FileCheck %s --check-prefix=CORES
end

; GM: asc-sim: error: --gm-size must be 1 byte to 1TB, got '0xffffffffffffffff'
; CORES: --block-dim: Value 2147483647 not in range 1 to 65535
