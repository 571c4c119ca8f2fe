// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { FORM_LIMITS, MSG, appLayerPort, cloudScriptTypeAt, contentEncodingError, errorKeyFor, fieldPathFor, portsListError, tunnelProtocolsFor, uploadRestrictionsFor, type FileLibraryEntry, type FormDefinition } from '@/api/contracts/action-form';
import { classifyHostCliLines, HOST_CLI_CONDITIONS, hostCliErrorSummary, parseHostCli, sampleHostCliCommand, tokenizeHostCliLine } from '@/api/contracts/action-form-host-cli';
import { rankActions } from './action-picker';
import { cloudSaveState } from './cloud-save-modal';
import { draftKey, dropDraft, readDraft, stableJson, writeDraft } from './drafts';
import { filterFiles, sortFiles } from './file-library-modal';
import { applyDimensionDefaults, emptyValues, fieldLabel, headerFilled, loadedValues, nestErrors, newValues, serverErrorsToFields, stepOfField, toPayload, validatePayload } from './form-model';
import { testPayload } from './test-values';
import { flattenTree, visibleNodes } from './tree-select';
import { joinBody, splitBody } from './types/web-request';
import { DIMENSION_TYPES } from '@/api/contracts/vocabulary';

const tree = (type: string, id: number) => ({ id, name: type, param_name: type, children: [{ id: id + 1, name: 'A', param_name: 'a', children: [{ id: id + 2, name: 'A child', param_name: 'a_child', children: [] }] }, { id: id + 3, name: 'B', param_name: 'b', children: [] }] });
const DEF: FormDefinition = {
  action_types: [],
  dimension_trees: DIMENSION_TYPES.map((type, i) => ({ type, label: type, required: true, tree: tree(type, i * 10 + 1) })),
  dimension_defaults: { dns: { behavior_type: 24 } },
  dns_servers: [{ id: 1, name: 'Corp', address: '10.0.0.1' }],
  action_user_profiles: [{ id: 3, friendly_name: 'User', username: 'CORP\\u' }],
  web_request_profiles: ['curl'],
  limits: FORM_LIMITS,
  execution_plan: false,
  flags: { brt_auth: false, protected_theater: true },
  pcap_upload: false,
};

describe('host_cli syntax (shared with the director)', () => {
  it('ACT-077 ACT-121 accepts a command, its parameters line and the nine conditions, and no other', () => {
    expect([...HOST_CLI_CONDITIONS].sort()).toEqual(
      ['blocked_match', 'blocked_nonzero', 'cleanup', 'error_match', 'error_nonzero', 'incompatible_match', 'incompatible_nonzero', 'success_match', 'success_zero'].sort(),
    );
    expect(parseHostCli('whoami\n  auto 4 true 60\n  success_nonzero').diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/^"success_nonzero" is not a condition/)]);
    const text = [
      sampleHostCliCommand('whoami', ['blocked_match Access is denied', 'success_match ^ok$', 'error_match fail', 'incompatible_match n/a', 'blocked_nonzero', 'success_zero', 'error_nonzero', 'incompatible_nonzero']),
      '',
      sampleHostCliCommand('del x', ['cleanup'], true),
    ].join('\n');
    const parsed = parseHostCli(text);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.commands.map((c) => [c.command, c.prompt_regex, c.sleep_seconds, c.check_logs, c.max_timeout_seconds, c.conditions.length])).toEqual([
      ['whoami', 'auto', 4, true, 60, 8],
      ['del x', 'auto', 3, true, 60, 1],
    ]);
  });

  it('reports the line and columns of each problem', () => {
    const { diagnostics } = parseHostCli('  orphan\nwhoami\n  auto x maybe 0\n  nope\n  success_zero extra\n  blocked_match\n  error_match ([');
    expect(diagnostics.map((d) => [d.line, d.message.slice(0, 30)])).toEqual([
      [1, 'An indented line must follow a'],
      [3, 'sleep_seconds must be a number'],
      [3, 'check_logs_boolean must be tru'],
      [3, 'max_timeout_seconds must be a '],
      [4, '"nope" is not a condition. All'],
      [5, 'success_zero takes no value.'],
      [6, 'blocked_match needs a regular '],
      [7, 'Not a valid regular expression'],
    ]);
    expect(diagnostics[1]).toMatchObject({ from: 7, to: 8 });
    expect(hostCliErrorSummary('whoami')).toMatch(/^line 1: This command has no parameters line/);
    expect(hostCliErrorSummary('whoami\n  auto 4 true')).toBeNull();
  });

  it('classifies and tokenizes lines for the highlighter the same way', () => {
    expect(classifyHostCliLines('a\n  auto 4 true\n  cleanup\n\nb')).toEqual(['command', 'params', 'condition', 'blank', 'command']);
    expect(tokenizeHostCliLine('  auto 4 true 60', 'params').map((t) => t.kind)).toEqual(['prompt', 'number', 'boolean', 'number']);
    expect(tokenizeHostCliLine('  blocked_match Access is denied', 'condition').map((t) => t.kind)).toEqual(['condition', 'regex']);
    expect(tokenizeHostCliLine('  bogus x', 'condition')[0]!.kind).toBe('invalid');
  });
});

describe('small syntaxes and rules', () => {
  it('ACT-078 port lists: commas, ranges and # prefixes', () => {
    expect(portsListError('1,2,3,5-9,11')).toBeNull();
    expect(portsListError('#3389, 80')).toBeNull();
    expect(portsListError('')).toBe(MSG.mustBeFilled);
    expect(portsListError('1,,2')).toMatch(/empty entry/);
    expect(portsListError('9-5')).toMatch(/end is before its start/);
    expect(portsListError('70000')).toMatch(/outside the port range/);
  });

  it('ACT-075 content encodings: the six names, comma separated, no period', () => {
    expect(contentEncodingError('zip,gzip, bzip2')).toBeNull();
    expect(contentEncodingError('')).toBeNull();
    expect(contentEncodingError('.zip')).toMatch(/period/);
    expect(contentEncodingError('lzma')).toMatch(/not one of/);
  });

  it('ACT-068 app layer ports and tunnel protocols', () => {
    expect(['ftp', 'http', 'https', 'scp', '8443', ''].map(appLayerPort)).toEqual([21, 80, 443, 25, 8443, null]);
    expect(tunnelProtocolsFor('scp')).not.toContain('ssh');
    expect(tunnelProtocolsFor('http')).toContain('ssh');
  });

  it('ACT-055 upload restrictions per type', () => {
    expect(uploadRestrictionsFor('file_transfer')).toEqual(['none', 'restricted_malicious']);
    expect(uploadRestrictionsFor('cloud')).toEqual(['none', 'pending_approval']);
    expect(uploadRestrictionsFor('host_cli')).toHaveLength(3);
  });

  it('ACT-066 cloud scripts: Setup first, Clean Up last, none between', () => {
    expect([0, 1, 2].map((i) => cloudScriptTypeAt(i, 3))).toEqual(['setup', null, 'cleanup']);
    expect(cloudScriptTypeAt(0, 1)).toBe('setup');
  });

  it('ACT-064 cloud save buttons: acknowledgement, pending and malicious files', () => {
    expect(cloudSaveState([], false, false)).toMatchObject({ queueEnabled: false, approveEnabled: false });
    expect(cloudSaveState([], true, false)).toMatchObject({ queueEnabled: true, approveEnabled: true });
    expect(cloudSaveState(['pending_approval'], true, false)).toMatchObject({ queueEnabled: true, approveEnabled: false, pending: true });
    expect(cloudSaveState(['restricted_malicious', 'none'], true, false)).toMatchObject({ queueEnabled: false, approveEnabled: false, ineligible: true });
    expect(cloudSaveState([], true, true)).toMatchObject({ queueEnabled: false, approveEnabled: false });
  });

  it('web request bodies split into kind, format and content on :v:', () => {
    expect(splitBody('form:v:urlencoded:v:a=1')).toEqual(['form', 'urlencoded', 'a=1']);
    expect(splitBody('plain')).toEqual(['', '', 'plain']);
    expect(joinBody('form', 'urlencoded', 'a=1')).toBe('form:v:urlencoded:v:a=1');
    expect(joinBody('', '', 'plain')).toBe('plain');
  });
});

describe('form values, payload and errors', () => {
  it('ACT-062 a new form applies the type defaults of the dimensions and the route prefill', () => {
    const v = newValues(DEF, { action_type: 'dns', domain: 'x.example.com', dns_name: 'DNS x', dns_desc: 'Look up x' });
    expect(v.sim_action).toMatchObject({ action_type: 'dns', name: 'DNS x', desc: 'Look up x' });
    expect(v.dns_action.domain).toBe('x.example.com');
    expect(v.trees[2]).toEqual({ id: 24 });
    expect(applyDimensionDefaults(v.trees, DEF, 'sleep')[2]).toEqual({ id: 24 });
    expect(newValues(DEF, { action_type: 'bogus' }).sim_action.action_type).toBe('');
  });

  it('sends only the chosen type, the VID override only with brt_auth, and the lock version', () => {
    const v = newValues(DEF, { action_type: 'dns' });
    v.system_override.vid = 'A250-1000';
    const p = toPayload(v, { brtAuth: false, lockVersion: 3 });
    expect(Object.keys(p).sort()).toEqual(['dns_action', 'lock_version', 'sim_action', 'tags', 'trees']);
    expect(toPayload(v, { brtAuth: true }).system_override).toEqual({ vid: 'A250-1000' });
  });

  it('ACT-073 client validation uses the director schemas and answers form paths', () => {
    const v = newValues(DEF, { action_type: 'website' });
    v.website_action.steps[0]!.request = '';
    const errors = validatePayload(toPayload(v, { brtAuth: false }));
    expect(errors['sim_action.name']).toBe(MSG.mustBeFilled);
    expect(errors['website_action.steps.0.request']).toBe(MSG.mustBeFilled);
    expect(errors['trees.0.id']).toBe(MSG.mustBeFilled);
    expect(validatePayload(toPayload(emptyValues(), { brtAuth: false }))['sim_action.action_type']).toBe('Select an Action Type.');
  });

  it('test values are valid for every type the form builds', () => {
    const files = [{ id: 5, orig_file_name: 'a.exe', sha256sum: 'x', file_restrictions: 'none' as const, size: 1 }];
    for (const type of ['dns', 'captive_dns', 'captive_ioc_url', 'email', 'file_transfer', 'socket', 'website', 'host_cli', 'port_scan', 'cloud', 'web_request', 'sleep'] as const) {
      const values = loadedValues(testPayload(type, DEF, files), 'new');
      expect(validatePayload(toPayload(values, { brtAuth: false })), type).toEqual({});
    }
  });

  it('ACT-106 server error keys map onto fields and steps', () => {
    const fields = serverErrorsToFields({
      'web_action_steps.1.request': ['must be filled'],
      'socket_action_steps.0.response': ['is not hex'],
      vid: ['has already been taken'],
      'dns_action.domain': ['must be filled', 'is too long'],
    });
    expect(fields).toEqual({
      'website_action.steps.1.request': 'must be filled',
      'socket_action.steps.0.response': 'is not hex',
      'system_override.vid': 'has already been taken',
      'dns_action.domain': 'must be filled is too long',
    });
    expect(errorKeyFor('website_action.steps[2].resp_code')).toBe('web_action_steps.2.resp_code');
    expect(errorKeyFor('system_override.vid')).toBe('vid');
    expect(fieldPathFor('trees.3.id')).toBe('trees.3.id');
    expect(['sim_action.name', 'system_override.vid', 'trees.1.id', 'tags.user_tags', 'dns_action.domain', 'sim_action.timeout_ms'].map(stepOfField)).toEqual([1, 1, 3, 3, 2, 2]);
    expect(nestErrors({ 'a.0.b': 'x', c: 'y' })).toEqual({ a: [{ b: { type: 'validation', message: 'x' } }], c: { type: 'validation', message: 'y' } });
  });

  it('error paths read as field names in the error summary', () => {
    expect(['trees.2.id', 'sim_action.name', 'website_action.steps.1.request', 'host_cli_action.raw_text', 'cloud_action.scripts.0.script_text', 'dns_action.domain'].map(fieldLabel)).toEqual([
      'Behavior Type',
      'Name',
      'Step 2 Request',
      'Script',
      'Script 1 Script text',
      'Domain',
    ]);
  });

  it('ACT-071 Save and Reset need name, description and type', () => {
    const v = emptyValues();
    expect(headerFilled(v)).toBe(false);
    v.sim_action = { ...v.sim_action, name: 'n', desc: 'd' };
    expect(headerFilled(v)).toBe(false);
    v.sim_action.action_type = 'sleep';
    expect(headerFilled(v)).toBe(true);
  });
});

describe('drafts', () => {
  it('writes, reads and drops a draft per user and slot; unreadable drafts are ignored', () => {
    const key = draftKey(7, 'edit:12');
    expect(key).toBe('vigil.actionDraft.v1:7:edit:12');
    const values = emptyValues();
    writeDraft(localStorage, key, { values, knownFiles: [], savedAt: 1000, baseVersion: 2, step: 2 });
    expect(readDraft(localStorage, key)).toMatchObject({ savedAt: 1000, baseVersion: 2, step: 2 });
    localStorage.setItem(draftKey(7, 'bad'), '{nope');
    expect(readDraft(localStorage, draftKey(7, 'bad'))).toBeNull();
    dropDraft(localStorage, key);
    expect(readDraft(localStorage, key)).toBeNull();
    expect(stableJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe(stableJson({ a: [{ c: 2, d: 1 }], b: 1 }));
  });
});

describe('pickers and tables', () => {
  it('tree select: flattening with paths, and filtering that keeps ancestors', () => {
    const flat = flattenTree(tree('os', 1));
    expect(flat.map((f) => f.path.join('/'))).toEqual(['A', 'A/A child', 'B']);
    expect(visibleNodes(flat, new Set(), '').map((f) => f.node.name)).toEqual(['A', 'B']);
    expect(visibleNodes(flat, new Set([2]), '').map((f) => f.node.name)).toEqual(['A', 'A child', 'B']);
    expect(visibleNodes(flat, new Set(), 'child').map((f) => f.node.name)).toEqual(['A', 'A child']);
  });

  it('ACT-019 file library: search across columns, id ascending by default, sortable', () => {
    const f = (id: number, name: string, tags: string[] = []): FileLibraryEntry => ({
      id,
      orig_file_name: name,
      sha256sum: `${id}abc`,
      file_restrictions: 'none',
      size: 1,
      file_notes: '',
      user_tags: [],
      verodin_tags: tags,
      os_tree_id: null,
      created_at: '',
      zip_entry_count: null,
    });
    const files = [f(3, 'b.exe'), f(1, 'c.exe', ['File:Script']), f(2, 'a.exe')];
    expect(sortFiles(files, 'id', 'asc').map((x) => x.id)).toEqual([1, 2, 3]);
    expect(sortFiles(files, 'orig_file_name', 'desc').map((x) => x.orig_file_name)).toEqual(['c.exe', 'b.exe', 'a.exe']);
    expect(filterFiles(files, 'script').map((x) => x.id)).toEqual([1]);
    expect(filterFiles(files, '2abc').map((x) => x.id)).toEqual([2]);
  });

  it('the action picker ranks VID and name matches', () => {
    const actions = [
      { id: 1, vid: 'A100-200', name: 'DNS Query - Cobalt', action_type: 'dns' as const, vendor: true },
      { id: 2, vid: 'A000-1001', name: 'Host CLI - Mimikatz', action_type: 'host_cli' as const, vendor: false },
    ];
    expect(rankActions(actions, 'mimi').map((a) => a.id)).toEqual([2]);
    expect(rankActions(actions, 'A100')[0]!.id).toBe(1);
    expect(rankActions(actions, '')).toHaveLength(2);
  });
});
