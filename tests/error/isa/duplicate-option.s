; RUN: asc-as %s -o /dev/null
    mmad.f16.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=16, k=16, m=32
