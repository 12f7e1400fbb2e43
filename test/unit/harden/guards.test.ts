// The `if` tests around a line of Python that say which values reach it (src/core/harden/guards.ts).
import * as assert from 'node:assert/strict';
import { enclosingGuards, inlineGuards, mayPass } from '../../../src/core/harden/guards';
import { ExprParser } from '../../../src/core/harden/syntax';
import { tokenize } from '../../../src/core/harden/lexer';

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

  it('reads a role name only from its own function, not an earlier one or a helper nested in it (was: another function\'s `role = m.get("role")` made a parameter test a guard)', () => {
    const earlier = 'def log(m):\n    role = m.get("role")\n\n\ndef send(m, role):\n    if role == "user":\n        HERE(m)\n';
    const nested = 'def outer(m):\n    def helper(m):\n        role = m.get("role")\n        return role\n    if role == "user":\n        HERE(m)\n';
    assert.deepEqual(guardsAt(earlier), []);
    assert.deepEqual(guardsAt(nested), []);
  });

  it('drops a guard on a name bound again before the line: an assignment, a loop or a comprehension (was: kept)', () => {
    const reassigned = 'def f(m):\n    if isinstance(m, UserMessage):\n        m = make_system(m)\n        HERE(m)\n';
    const looped = 'def f(m, history):\n    if isinstance(m, UserMessage):\n        for m in history:\n            HERE(m)\n';
    const comprehension = 'def f(m, history):\n    if isinstance(m, UserMessage):\n        return [HERE(m) for m in history]\n';
    for (const code of [reassigned, looped, comprehension]) assert.deepEqual(guardsAt(code), [], code);
    assert.deepEqual(guardsAt('def f(m, n):\n    if isinstance(m, UserMessage):\n        n = 1\n        HERE(m)\n'), [{ name: 'm', classes: ['UserMessage'] }]);
  });

  it('reads the test of a conditional expression for its first branch, and a comprehension\'s filter, on the same line', () => {
    const line = '    text = [("User: " + m["content"]) if m["role"] == "user" else ("Agent: " + m["content"]) for m in messages]\n';
    assert.deepEqual(enclosingGuards(line, line.indexOf('m["content"]')), [{ name: 'm', role: 'user' }]);
    assert.deepEqual(enclosingGuards(line, line.lastIndexOf('m["content"]')), [], 'the else branch');
    assert.deepEqual(enclosingGuards(line, line.indexOf('m["role"]')), [], 'the test itself');
    const filter = '    text = [m["content"] for m in messages if isinstance(m, UserMessage) and ok]\n';
    assert.deepEqual(enclosingGuards(filter, filter.indexOf('m["content"]')), [{ name: 'm', classes: ['UserMessage'] }]);
    const sibling = '    call(m["content"], "if" if m["role"] == "user" else "x")\n';
    assert.deepEqual(enclosingGuards(sibling, sibling.indexOf('m["content"]')), [], 'a sibling argument\'s test');
    const quoted = '    text = ("a, else: if" + m["content"]) if m["role"] == "user" else ""\n';
    assert.deepEqual(enclosingGuards(quoted, quoted.indexOf('m["content"]')), [{ name: 'm', role: 'user' }], 'keywords inside strings');
  });

  it('reads such a test over the lines a bracketed expression spans (black\'s layout), not an if statement after the line', () => {
    const black = ['    text = "\\n".join(', '        [', '            ("User: " + m["content"])', '            if m["role"] == "user"', '            else ("Agent: " + m["content"])', '            for m in messages', '        ]', '    )', ''].join('\n');
    assert.deepEqual(enclosingGuards(black, black.indexOf('m["content"]')), [{ name: 'm', role: 'user' }]);
    assert.deepEqual(enclosingGuards(black, black.lastIndexOf('m["content"]')), []);
    const statement = ['def f(m):', '    """A note (unclosed in prose', '    """', '    text = m["content"]', '    if m["role"] == "user":', '        pass', ''].join('\n');
    assert.deepEqual(enclosingGuards(statement, statement.indexOf('m["content"]')), []);
    const prose = ['def f(m):', '    # see (the notes', '    log("a (b")', '    text = m["content"]', '    if m["role"] == "user":', '        pass', ''].join('\n');
    assert.deepEqual(enclosingGuards(prose, prose.indexOf('m["content"]')), [], 'brackets in comments and strings do not open the statement');
  });

  it('reads the test however far above the bracket holding the branch opened (was: only the nearest 40 lines were read for open brackets)', () => {
    const rows = Array.from({ length: 45 }, (_, i) => `        "rule ${i}",`);
    const long = ['    text = "\\n".join([', ...rows, '        ("User: " + m["content"])', '        if m["role"] == "user"', '        else "x"', '        for m in messages', '    ])', ''].join('\n');
    assert.deepEqual(enclosingGuards(long, long.indexOf('m["content"]')), [{ name: 'm', role: 'user' }]);
  });

  it('does not narrow a name that a comprehension or lambda inside the branch binds afresh, nor read a test from a string, a later statement or an f-string\'s rest', () => {
    const shadow = '    text = "\\n".join([("Agent: " + m["content"]) for m in messages]) if m["role"] == "user" else ""\n';
    assert.deepEqual(inlineGuards(shadow, shadow.indexOf('m["content"]')), []);
    const lambda = '    fmt = (lambda m: "Agent: " + m["content"]) if m["role"] == "user" else str\n';
    assert.deepEqual(inlineGuards(lambda, lambda.indexOf('m["content"]')), []);
    const fstring = `    text = f"{m['content']}" + "if m['role'] == 'user' else"\n`;
    assert.deepEqual(inlineGuards(fstring, fstring.indexOf("m['content']")), []);
    const docstring = ['def render(m):', '    """One message for the prompt.', '    Roles: user, agent (the model\'s reply', '    """', '    text = m["content"]', '    tag = "User" if m["role"] == "user" else "Agent"', ''].join('\n');
    assert.deepEqual(inlineGuards(docstring, docstring.indexOf('m["content"]')), [], 'a bracket inside a docstring opens nothing');
  });

  it('a value passes a class test unless it is a framework message class of another role (a project\'s own subclass is not judged by its name)', () => {
    const call = (code: string) => new ExprParser(code, tokenize(code, 'python'), 'python').expression();
    const system = { name: 'm', classes: ['SystemMessage'] };
    assert.equal(mayPass(system, call('UserMessage(content="hi")'), ''), false);
    assert.equal(mayPass(system, call('HumanMessage(content="hi")'), ''), false);
    assert.equal(mayPass(system, call('SystemMessage(content="hi")'), ''), true);
    assert.equal(mayPass(system, call('UserDefinedSystemMessage(content="hi")'), ''), true, 'was: dropped for its "User" prefix');
    assert.equal(mayPass({ name: 'm', classes: ['DeveloperMessage'] }, call('SystemMessage(content="hi")'), ''), true, 'developer and system are one role');
  });
});
