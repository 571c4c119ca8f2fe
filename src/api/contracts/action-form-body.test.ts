import { describe, expect, it } from 'vitest';
import { actionFormSchema, type ActionFormPayload } from './action-form';
import { FormBodyError, decodeActionForm, encodeActionForm, formFieldsOf, isFormContentType } from './action-form-body';

const trees = [11, 12, 13, 14, 15, 16].map((id) => ({ id }));

const cloudPayload: ActionFormPayload = {
  sim_action: { name: 'Cloud, with commas', desc: 'd', action_type: 'cloud', timeout_ms: null, uac: false },
  trees,
  tags: { user_tags: ['Group:Lab', 'Lab Only'], verodin_tags: ['T1059'] },
  cloud_action: {
    inputs: [{ name: 'region', default_value: '' }],
    outputs: [],
    scripts: [
      { name: 'Setup', script_text: 'a = 1\nb = 2', script_type: 'setup', timeout: 30 },
      { name: 'Clean Up', script_text: 'print(1)', script_type: null, timeout: 60 },
    ],
    files: [{ file_id: 7, variable_name: 'payload' }],
    approve_anywhere: true,
  },
};

const decode = (pairs: [string, string][]) => decodeActionForm(formFieldsOf(new URLSearchParams(pairs)));

describe("the spec's form data for saving an Action", () => {
  it('ACT-094 encodes cloud under sim_action[cloud_action_attributes] with *_attributes lists, and decodes back to the same payload', () => {
    const pairs = encodeActionForm(cloudPayload);
    expect(pairs).toContainEqual(['sim_action[cloud_action_attributes][scripts_attributes][1][script_type]', '']);
    expect(pairs).toContainEqual(['sim_action[cloud_action_attributes][files_attributes][0][variable_name]', 'payload']);
    expect(pairs).toContainEqual(['trees[5][id]', '16']);
    expect(pairs.filter(([k]) => k === 'user_tags[]').map(([, v]) => v)).toEqual(['Group:Lab', 'Lab Only']);
    const back = actionFormSchema('cloud').validateSync(decode(pairs));
    expect(back).toEqual(cloudPayload);
  });

  it('a key without [] keeps its last value (hidden 0 then checkbox 1), key[] keeps all, a comma list of tags splits', () => {
    const body = decode([
      ['sim_action[action_type]', 'captive_ioc_url'],
      ['sim_action[uac]', '0'],
      ['sim_action[uac]', '1'],
      ['captive_ioc_url_action[urls][]', 'http://a.example/'],
      ['captive_ioc_url_action[urls][]', 'http://b.example/'],
      ['captive_ioc_url_action[timeout_ms]', ''],
      ['user_tags', 'One, Two,,'],
    ]);
    expect(body.sim_action).toMatchObject({ uac: '1' });
    expect(body.captive_ioc_url_action).toEqual({ urls: ['http://a.example/', 'http://b.example/'], timeout_ms: null });
    expect(body.tags).toEqual({ user_tags: ['One', 'Two'], verodin_tags: [] });
  });

  it('checkbox words become booleans; an empty nullable field becomes null; index order wins over post order', () => {
    const body = decode([
      ['sim_action[action_type]', 'website'],
      ['website_action[use_https]', 'on'],
      ['website_action[server_port]', ''],
      ['website_action[steps_attributes][1][request]', 'second'],
      ['website_action[steps_attributes][0][request]', 'first'],
    ]);
    expect(body.website_action).toEqual({ use_https: true, server_port: null, steps: [{ request: 'first' }, { request: 'second' }] });
  });

  it('refuses reserved names, bad brackets and a key sent both as a value and as a group', () => {
    expect(() => decode([['sim_action[__proto__][x]', '1']])).toThrow(FormBodyError);
    expect(() => decode([['sim_action]name[', '1']])).toThrow(/is not a form field name/);
    expect(() => decode([['a[b]', '1'], ['a[b][c]', '2']])).toThrow(/under a value/);
    expect(() => decode([['a[b][c]', '2'], ['a[b]', '1']])).toThrow(/both as a value and as a group/);
  });

  it('knows form content types', () => {
    expect(isFormContentType('application/x-www-form-urlencoded; charset=UTF-8')).toBe(true);
    expect(isFormContentType('multipart/form-data; boundary=x')).toBe(true);
    expect(isFormContentType('application/json')).toBe(false);
    expect(isFormContentType(undefined)).toBe(false);
  });
});
