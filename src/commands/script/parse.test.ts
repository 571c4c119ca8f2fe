import { describe, expect, it } from 'vitest';
import { parseScript } from './parse';

describe('script parser', () => {
  it('reads commands with named arguments, comments and blank lines', () => {
    const { steps, errors } = parseScript(['# cancel stale jobs', '', 'jobs.cancel id=812', '  actions.approve vid=A104-223 mode=anywhere  # inline comment'].join('\n'));
    expect(errors).toEqual([]);
    expect(steps.map((s) => [s.line, s.commandId, s.args])).toEqual([
      [3, 'jobs.cancel', { id: { kind: 'literal', text: '812' } }],
      [4, 'actions.approve', { vid: { kind: 'literal', text: 'A104-223' }, mode: { kind: 'literal', text: 'anywhere' } }],
    ]);
    expect(steps[1]?.column).toBe(3);
    expect(steps[1]?.argColumns).toEqual({ vid: 19, mode: 32 });
  });

  it('reads quoted values with escapes and spaces', () => {
    const { steps } = parseScript('jobs.export filter="status:completed and name:\\"Daily\\"" note="a\\tb\\nc" empty=""');
    expect(steps[0]?.args).toEqual({
      filter: { kind: 'literal', text: 'status:completed and name:"Daily"' },
      note: { kind: 'literal', text: 'a\tb\nc' },
      empty: { kind: 'literal', text: '' },
    });
  });

  it('binds results with let and reads them back as variables, alone or inside strings', () => {
    const { steps, errors } = parseScript('let job = run.sequence sim_id=4\njobs.wait id=$job.id\nscript.echo text="job ${job.id} is ${job.status}"');
    expect(errors).toEqual([]);
    expect(steps[0]?.bind).toBe('job');
    expect(steps[1]?.args.id).toEqual({ kind: 'var', name: 'job', path: ['id'] });
    expect(steps[2]?.args.text).toEqual({
      kind: 'template',
      parts: ['job ', { kind: 'var', name: 'job', path: ['id'] }, ' is ', { kind: 'var', name: 'job', path: ['status'] }],
    });
  });

  it.each([
    ['cancel id=1', 1, 1, '"cancel" is not a command id (ids look like jobs.cancel)'],
    ['jobs.cancel id', 1, 13, 'Expected name=value, got "id"'],
    ['jobs.cancel id=', 1, 16, 'A value is missing after "="'],
    ['jobs.cancel note="open', 1, 18, 'Unterminated string: a closing " is missing'],
    ['jobs.cancel id=1 id=2', 1, 18, 'Argument "id" is given twice'],
    ['let = jobs.cancel', 1, 5, 'A variable name is missing after "let"'],
    ['let 9x = jobs.cancel', 1, 5, '"9x" is not a valid variable name'],
    ['let x jobs.cancel', 1, 7, 'Expected "=" after "let x"'],
    ['jobs.cancel id=$1bad', 1, 16, '"$1bad" is not a valid variable reference'],
    ['jobs.cancel note="a\\qb"', 1, 20, 'Unknown escape "\\q"'],
    ['\n\n   jobs.cancel x=a"b', 3, 19, 'A quote may only start a value: write key="…"'],
  ])('reports %j with its line and column', (source, line, column, message) => {
    const { errors } = parseScript(source);
    expect(errors).toEqual([{ line, column, message }]);
  });

  it('keeps parsing the other lines after an error', () => {
    const { steps, errors } = parseScript('jobs.cancel id=1\nbroken\njobs.cancel id=2');
    expect(steps.map((s) => s.line)).toEqual([1, 3]);
    expect(errors.map((e) => e.line)).toEqual([2]);
  });
});
