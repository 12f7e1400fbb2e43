import { loadRealRuns } from '../bench/lib/realRuns';
import { analyzeRuns } from '../bench/lib/realEval';
(async () => {
  const runs = loadRealRuns()!.filter((r) => r.source === 'debate');
  const v = await analyzeRuns(runs);
  for (const x of [0.3, 0.35, 0.4, 0.45]) {
    let tp = 0, fpAtt = 0, fpClean = 0;
    v.forEach((r, ri) => {
      if (!r.predicted.includes('attacker')) return;
      r.predicted.forEach((p, i) => {
        if (p !== 'benign' || r.pAtk[i] < x) return;
        if (r.truth[i] === 'attacker') tp++; else if (runs[ri].attacked) fpAtt++; else fpClean++;
      });
    });
    console.log(x, { tp, fpAtt, fpClean });
  }
  let tp=0,fp=0,fn=0,cf=0,cb=0;
  v.forEach((r,ri)=>r.truth.forEach((t,i)=>{const p=r.predicted[i]; if(p==='attacker'&&t==='attacker')tp++; else if(p==='attacker')fp++; else if(t==='attacker')fn++; if(!runs[ri].attacked){cb++; if(p!=='benign')cf++;}}));
  console.log({tp,fp,fn,f1:2*tp/(2*tp+fp+fn),clean:cf/cb});
})();
