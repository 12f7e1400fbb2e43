// The `if` tests around a line of Python that say which values reach it (src/core/harden/guards.ts).
import * as assert from 'node:assert/strict';
import { enclosingGuards } from '../../../src/core/harden/guards';

/** The guards at the line of `marker` in `code`. */
function guardsAt(code: string, marker = 'HERE') {
  return enclosingGuards(code, code.indexOf(marker));
}

describe('harden: guards around a line', () => {
  it('reads isinstance tests (one class or a tuple) of the enclosing if and elif blocks, innermost first', () => {
    const code = [
      'def f(m, n):',
      '    if isinstance(m, (SystemMessage, models.DeveloperMessage)):',
      '        for x in m.parts:',
      '            if isinstance(n, UserMessage) and ready:',
      '                HERE(m, n)',
    ].join('\n');
    assert.deepEqual(guardsAt(code), [{ name: 'n', classes: ['UserMessage'] }, { name: 'm', classes: ['SystemMessage', 'DeveloperMessage'] }]);
  });

  it('takes an elif branch\'s own test, not its siblings\', and nothing past the function', () => {
    const code = [
      'if isinstance(m, AssistantMessage):',
      '    def g(m):',
      '        if isinstance(m, TextMessage):',
      '            pass',
      '        elif isinstance(m, MultiModalMessage):',
      '            HERE(m.content)',
    ].join('\n');
    assert.deepEqual(guardsAt(code), [{ name: 'm', classes: ['MultiModalMessage'] }]);
  });

  it('reads a role test on the dict, its key or a name read from it', () => {
    const direct = 'def f(m):\n    if m["role"] == "system":\n        HERE(**m)\n';
    const named = 'def f(m_dict):\n    role = m_dict.get("role")\n    if "system" == role:\n        HERE(**m_dict)\n';
    assert.deepEqual(guardsAt(direct), [{ name: 'm', role: 'system' }]);
    assert.deepEqual(guardsAt(named), [{ name: 'm_dict', role: 'system' }]);
  });

  it('makes no guard of a test with or / not, an else branch, or a test that spans lines', () => {
    for (const header of ['if isinstance(m, A) or isinstance(m, B):', 'if not isinstance(m, A):', 'if (isinstance(m, A)', 'else:']) {
      assert.deepEqual(guardsAt(`def f(m):\n    ${header}\n        HERE(m)\n`), [], header);
    }
  });
});
