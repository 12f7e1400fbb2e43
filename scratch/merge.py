# merge.py BASE NEW... : replace BASE's sections by title with NEW's, write bench/results/latest.json
import json, sys
base = json.load(open(sys.argv[1]))
for f in sys.argv[2:]:
    new = json.load(open(f))
    for s in new['sections']:
        idx = [i for i, x in enumerate(base['sections']) if x['title'] == s['title']]
        if idx: base['sections'][idx[0]] = s
        else: base['sections'].append(s)
    base['date'] = new['date']
json.dump(base, open('bench/results/latest.json', 'w'), indent=2)
open('bench/results/latest.json', 'a').write('\n')
