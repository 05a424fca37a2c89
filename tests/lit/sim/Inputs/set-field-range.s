; set_field of a repeat beyond 255
li x3, 256
set_field repeat, x3
vadd.f16 ub[0x200], ub[0x0], ub[0x0], repeat=1, blk=1/1/1, rep=8/8/8
end
