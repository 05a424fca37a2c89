; a set_field no instruction takes
li x3, 4
set_field burstLen, x3
end
