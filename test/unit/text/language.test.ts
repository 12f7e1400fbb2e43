// The guard reads English: a run whose agents write another language gets a `not-english` warning saying that its
// verdicts there rest on the answers and the graph; English runs and short texts do not.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { analyzeTrace } from '../../../src/core/guard/analyze';
import { importTraceText } from '../../../src/core/importers/index';
import { englishShare, readsAsNotEnglish } from '../../../src/core/text/language';
import { parseTraceText } from '../../../src/core/trace/parse';

// Written for this test: three agents discussing a question in Vietnamese, about forty words each.
const VIETNAMESE = [
  'Sau khi xem xét ý kiến của các tác tử khác, tôi vẫn cho rằng thành phố cần tìm là Scranton. Quận Lackawanna có trụ sở hành chính tại đó, và các nguồn tài liệu lịch sử đều xác nhận điều này một cách rõ ràng.',
  'Tôi đồng ý một phần với tác tử số một, nhưng tôi muốn nhấn mạnh rằng câu hỏi hỏi về thành phố chứ không phải thủ phủ của tiểu bang. Vì vậy câu trả lời hợp lý nhất vẫn là Scranton, không phải Harrisburg.',
  'Dựa trên thông tin được cung cấp, tôi thấy rằng nhiều tác tử đã thống nhất. Tuy nhiên tôi sẽ kiểm tra lại các bằng chứng trước khi đưa ra kết luận cuối cùng cho nhóm, để tránh sai sót không cần thiết trong câu trả lời.',
];

function debate(outputs: string[], rounds = 2): string {
  const agents = outputs.map((_, i) => `a${i}`);
  const lines = [JSON.stringify({ type: 'header', schema: 'agent-trace/v1', agents: agents.map((id) => ({ id })) })];
  for (let k = 0; k < rounds; k++) outputs.forEach((text, i) => lines.push(JSON.stringify({ type: 'message', round: k, from: agents[i], content: text })));
  return lines.join('\n');
}

describe('language of a run', () => {
  it('reads English prose as English and Vietnamese as not, and says nothing of a few words', () => {
    assert.ok(englishShare(['The agents agreed that the answer is B, and they said so in every round of the debate.']).share > 0.25);
    assert.ok(englishShare(VIETNAMESE).share < 0.05);
    assert.equal(readsAsNotEnglish(englishShare(VIETNAMESE)), true);
    assert.equal(readsAsNotEnglish(englishShare([VIETNAMESE[0].slice(0, 60)])), false, 'too few words to say');
  });

  it('warns `not-english` on a run written in Vietnamese, and not on the bundled English examples', async () => {
    const analysis = await analyzeTrace(parseTraceText(debate(VIETNAMESE), { file: 'vi.jsonl' }));
    const warning = analysis.warnings.find((w) => w.code === 'not-english');
    assert.ok(warning, JSON.stringify(analysis.warnings));
    assert.match(warning.message, /word lists and text model are English/);
    for (const example of ['examples/traces/random-8.jsonl', 'examples/debate/truthfulqa-adversary.jsonl']) {
      const file = path.join(__dirname, '../../..', example);
      const english = await analyzeTrace(importTraceText(readFileSync(file, 'utf8'), { file }));
      assert.equal(english.warnings.some((w) => w.code === 'not-english'), false, example);
    }
  });
});
