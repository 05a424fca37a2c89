; set_field of a field copy_gm_ub does not have
li x3, 4
set_field h, x3
copy_gm_ub ub[0x0], gm[0x0], nburst=1, len=1
end
