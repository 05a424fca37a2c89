; --trace writes Chrome trace JSON: a process per core, a thread per pipe, X events in cycles.
; RUN: %asc-sim %s --gm-size 0x10000 --block-dim 2 --trace %t.json > /dev/null
; RUN: %python -c "import json; t = json.load(open('%t.json'))['traceEvents']; names = sorted(e['args']['name'] for e in t if e['name'] == 'process_name'); assert names == ['core 0', 'core 1'], names; x = [e for e in t if e['ph'] == 'X' and e['tid'] == 1]; assert len(x) == 2 and all(e['dur'] == 5 for e in x), x"

vmuls.f32 ub[0x0], ub[0x0], #0x40000000, repeat=4
end
