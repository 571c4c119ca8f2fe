import crypto from 'node:crypto';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { DEMO_USERS, REPO_ROOT } from './director';
import { eventually, paletteInput, pathOf, waitForFocused, waitForPath } from './workbench';
import { buildZip } from '../server/actions/zip';
import { typeKey, type FormDefinition, type LoadedAction, type PickerAction } from '../src/api/contracts/action-form';
import { type ActionType } from '../src/api/contracts/vocabulary';

const baseUrl = sharedDirectorUrl();
const NEW_URL = '/manage_sims/actions/unified_action/new';
const MSG_SAVE_FAILED = 'Warning! Validation errors kept this Action from saving successfully. Please see below.';
const MSG_SELECT_TYPE = 'Warning! Validation errors kept this Action from saving successfully. Select an Action Type.';

type Who = 'admin' | 'operator' | 'approver';
const signInAs = (page: Page, who: Who, at = '/') =>
  who === 'admin' ? signIn(page, inject('adminEmail'), inject('adminPassword'), at) : signIn(page, DEMO_USERS[who], inject('demoUserPassword'), at);

const api = async <T>(page: Page, path: string): Promise<T> => {
  const res = await page.request.get(path, { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
  expect(res.status(), `GET ${path}`).toBe(200);
  return (await res.json()) as T;
};
const csrf = (page: Page) => page.evaluate(() => document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '');

const form = (page: Page, kind = 'action-new') => page.locator(`[data-pane-kind="${kind}"]`);
const toast = (page: Page, text: string | RegExp) => page.locator('[aria-live="polite"]').getByText(text).first();
const fieldError = (scope: Locator) => scope.locator('[data-field-error]');

const newUrl = (type?: string) => (type ? `${NEW_URL}?action_type=${type}` : NEW_URL);

async function openNew(page: Page, type?: string): Promise<Locator> {
  await page.goto(newUrl(type));
  return newForm(page);
}

/** Signs in as `who` straight at the Add Action form (one page load, not the Start pane and then the form). */
async function signInToNew(page: Page, who: Who, type?: string): Promise<Locator> {
  await signInAs(page, who, newUrl(type));
  return newForm(page);
}

/** The Add Action form once drawn, an offered draft discarded. */
async function newForm(page: Page): Promise<Locator> {
  const f = form(page);
  await f.getByRole('heading', { name: 'Add Action', level: 2 }).waitFor();
  if (await f.getByRole('button', { name: 'Discard Draft' }).count()) await f.getByRole('button', { name: 'Discard Draft' }).click();
  return f;
}

/** The hidden key combination: fills test values for the chosen type. */
async function fillTestValues(page: Page, f: Locator, type: string): Promise<void> {
  await f.getByLabel('Name', { exact: true }).click();
  await page.keyboard.press('Control+Alt+Shift+KeyT');
  await toast(page, `Test values for a ${type} Action were filled in.`).waitFor();
}

/** A new form of the type with its test values, at step 2 (Action Details); signed in first as `signInFirstAs` if given. */
async function openFilledDetails(page: Page, type: string, signInFirstAs?: Who): Promise<Locator> {
  const f = signInFirstAs ? await signInToNew(page, signInFirstAs, type) : await openNew(page, type);
  await fillTestValues(page, f, type);
  await gotoStep(f, 'Action Details');
  return f;
}

async function idOf(page: Page, name: string): Promise<PickerAction> {
  let found: PickerAction | undefined;
  await eventually(async () => {
    found = (await api<{ data: PickerAction[] }>(page, '/manage_sims/actions/picker.json')).data.find((a) => a.name === name);
    return !!found;
  }, true, `the Action "${name}" is listed`);
  return found!;
}

/** After a save the library opens with the saved Action selected: /manage_sims/action/{vid}. */
const waitForSavedAction = (page: Page) => eventually(() => /^\/manage_sims\/action\/A\d{3}-\d+$/.test(pathOf(page)), true, 'the library selects the saved Action');

async function saveAndLeave(page: Page, verb: 'created' | 'updated'): Promise<void> {
  await page.keyboard.press('Control+s');
  await toast(page, new RegExp(`Action A\\d{3}-\\d+ was successfully ${verb}\\.`)).waitFor();
  await waitForSavedAction(page);
  await waitForFocused(page, 'Actions');
}

/** The draft texts kept in browser storage for the signed-in user (actions.md: a draft is never lost). */
const draftTexts = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('vigil.actionDraft.v1:')).map((k) => localStorage.getItem(k) ?? ''));
const waitForDraftWith = (page: Page, text: string) =>
  eventually(async () => (await draftTexts(page)).some((d) => d.includes(text)), true, `a draft holding "${text}" is in browser storage`);

async function gotoStep(f: Locator, title: string): Promise<void> {
  await f.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: new RegExp(title) }).click();
}


/** Every step at once, so a snapshot sees every field. */
async function showAllSteps(f: Locator): Promise<void> {
  const toggle = f.getByRole('button', { name: 'Show All Steps' });
  if (await toggle.count()) await toggle.click();
  await f.getByRole('button', { name: 'Show As Wizard' }).waitFor();
}

/**
 * What the form shows, by label: every input, select and text area (checked state for checkboxes and
 * radios), every code editor's text, every dimension picker's value, every table (attached files) and
 * the removable chips (tags). Repeated labels are numbered in document order.
 */
function formSnapshot(f: Locator): Promise<Record<string, string>> {
  return f.evaluate((root) => {
    const out: Record<string, string> = {};
    const seen: Record<string, number> = {};
    const add = (key: string, value: string) => {
      const n = (seen[key] = (seen[key] ?? 0) + 1);
      out[n > 1 ? `${key} #${n}` : key] = value;
    };
    const labelOf = (el: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement) =>
      (el.labels?.[0]?.innerText ?? el.getAttribute('aria-label') ?? el.name ?? el.id).replace(/\s*\*$/, '').trim();
    const chips: string[] = [];
    for (const el of root.querySelectorAll<HTMLElement>('input, select, textarea, [data-code-editor], button[aria-haspopup="tree"], table, button[aria-label^="Remove "]')) {
      if (el.closest('[data-code-editor]') && !el.matches('[data-code-editor]')) continue;
      if (el instanceof HTMLInputElement) {
        if (['file', 'hidden', 'search'].includes(el.type) || el.getAttribute('role') === 'combobox') continue;
        add(`${el.type} ${labelOf(el)}`, el.type === 'checkbox' || el.type === 'radio' ? String(el.checked) : el.value);
      } else if (el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) add(`${el.tagName.toLowerCase()} ${labelOf(el)}`, el.value);
      else if (el.matches('[data-code-editor]')) add(`code ${el.getAttribute('data-code-editor')}`, el.querySelector<HTMLElement>('.cm-content')?.innerText ?? '');
      else if (el.matches('button[aria-haspopup="tree"]')) {
        const [labelId, valueId] = (el.getAttribute('aria-labelledby') ?? '').split(' ');
        const textOf = (id: string | undefined) => (id ? (document.getElementById(id)?.innerText.trim() ?? '') : '');
        add(`tree ${textOf(labelId)}`, textOf(valueId));
      }
      else if (el instanceof HTMLTableElement) add(`table ${el.getAttribute('aria-label') ?? ''}`, el.innerText.trim());
      else chips.push(el.getAttribute('aria-label')!);
    }
    add('removable', chips.sort().join(' | '));
    return out;
  });
}

/**
 * The library preview's detail (actions.md section 3 "Preview detail by type") for saved type fields:
 * the same name unless renamed here; null marks a field the preview does not show.
 */
const PREVIEW_FIELDS: Partial<Record<ActionType, Record<string, string | null>>> = {
  dns: { dns_server_id: null },
  captive_ioc_url: { timeout_ms: null },
  email: { files: 'file_attachments', block_matching_scheme: null },
  file_transfer: {
    file_transfer_library_id: 'file.id',
    content_encoding: 'encoding',
    dns_domain: 'request_domain',
    dns_server_ip: 'forward_DNS',
    tunnel_cidr: 'cidr',
    compare_transfer: null,
    keep_after_compare: null,
  },
  host_cli: {
    shell: 'commands.shell_type',
    raw_text: 'commands.raw_text',
    cleanup_raw_text: 'commands.cleanup_raw_text',
    files: 'files.file_list',
    automatic_file_cleanup: 'files.automatic_file_cleanup',
    delivery_wait_time: 'files.delivery_wait_time',
    delivery_failed_result: 'files.delivery_failed_result',
    destination_exists_result: 'files.destination_exists_result',
    action_user_profile_id: null,
    require_run_as_interactive: null,
    monitor_connections: null,
    require_protected: null,
    approve_anywhere: null,
    separate_cleanup_shell: null,
    execution_plan: null,
  },
  cloud: { files: 'files.file_list', approve_anywhere: null },
};

/** The preview detail expected for saved type fields (file links compare by id). */
function expectedPreview(type: ActionType, fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const target = PREVIEW_FIELDS[type]?.[key] === undefined ? key : PREVIEW_FIELDS[type]![key];
    if (target === null) continue;
    const v = key === 'files' ? (value as { file_id: number; randomize_file?: boolean }[]).map(({ file_id, randomize_file: _r, ...rest }) => ({ id: file_id, ...rest })) : value;
    const parts = target.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = v;
  }
  return out;
}

const TYPES: ActionType[] = ['dns', 'captive_dns', 'captive_ioc_url', 'email', 'file_transfer', 'socket', 'website', 'host_cli', 'port_scan', 'cloud', 'web_request', 'sleep'];

async function saveCloudToQueue(page: Page): Promise<void> {
  await page.keyboard.press('Control+s');
  const modal = page.getByRole('dialog', { name: 'Save Cloud Action' });
  await modal.getByRole('checkbox').waitFor();
  expect(await modal.getByRole('button', { name: 'Add to Approval Queue' }).isDisabled()).toBe(true);
  // An operator has no approve permission: no Approve Now (ACT-084).
  expect(await modal.getByRole('button', { name: 'Approve Now' }).count()).toBe(0);
  await modal.getByRole('checkbox').check();
  await modal.getByRole('button', { name: 'Add to Approval Queue' }).click();
}

describe('Action form: create and edit every type', () => {
  const b = useBrowser(() => baseUrl);

  it.each(TYPES)('ACT-094 ACT-062 ACT-015 ACT-093 creates a %s Action in the wizard; after a reload the edit form shows every value entered, and the preview the saved ones', async (type) => {
    const { page } = b;
    const f = await signInToNew(page, 'operator', type);
    await fillTestValues(page, f, type);
    const name = `E2E ${type} ${crypto.randomBytes(3).toString('hex')}`;
    await f.getByLabel('Name', { exact: true }).fill(name);
    await showAllSteps(f);
    const entered = await formSnapshot(f);
    expect(entered['text Name']).toBe(name);
    expect(Object.keys(entered).length).toBeGreaterThan(6);
    if (type === 'cloud') {
      await saveCloudToQueue(page);
      await toast(page, /was successfully created/).waitFor();
      await waitForSavedAction(page);
    } else await saveAndLeave(page, 'created');
    expect(await form(page).count()).toBe(0);

    const created = await idOf(page, name);
    expect(created.action_type).toBe(type);
    const editUrl = type === 'cloud' ? `/manage_sims/actions/cloud_action/${created.id}/edit` : `/manage_sims/actions/${created.id}/edit`;
    // A new page load: the form shows what the director kept.
    await page.goto(editUrl);
    const e = form(page, 'action-edit');
    await e.getByRole('heading', { name: `Edit Action ${created.vid}`, level: 2 }).waitFor();
    await waitForFocused(page, `Edit Action ${created.vid}`);
    await showAllSteps(e);
    // Every field the user saw before saving shows the same value after the reload.
    await eventually(async () => {
      const shown = await formSnapshot(e);
      return Object.fromEntries(Object.keys(entered).map((k) => [k, shown[k]]));
    }, entered, `every ${type} value entered is in the edit form`);

    // The library preview shows the saved type fields.
    const saved = await api<LoadedAction>(page, `/manage_sims/actions/${created.id}/form.json`);
    const fields = saved.values[typeKey(type)] as Record<string, unknown>;
    const preview = await api<{ data: { preview_props: { vid: string; sim_name: string; action_type: string; detail: Record<string, unknown> } } }>(page, `/library/actions.json?id=${created.id}`);
    expect(preview.data.preview_props).toMatchObject({ vid: created.vid, sim_name: name, action_type: type });
    expect(preview.data.preview_props.detail).toMatchObject(expectedPreview(type, fields));

    await e.getByRole('region', { name: 'Name/Description' }).getByLabel('Name', { exact: true }).fill(`${name} edited`);
    if (type === 'cloud') {
      await saveCloudToQueue(page);
      await toast(page, /was successfully updated/).waitFor();
      await waitForSavedAction(page);
    } else await saveAndLeave(page, 'updated');

    const loaded = await api<LoadedAction>(page, `/manage_sims/actions/${created.id}/form.json`);
    expect(loaded.version).toBe(2);
    expect(loaded.values.sim_action.name).toBe(`${name} edited`);
    expect(loaded.values[typeKey(type)]).toEqual(saved.values[typeKey(type)]);
    expect(loaded.values.trees).toEqual(saved.values.trees);
    expect(loaded.values.tags).toEqual(saved.values.tags);
  });
});

describe('Action form: the wizard shell', () => {
  const b = useBrowser(() => baseUrl);

  it('ACT-011 ACT-012 ACT-013 ACT-014 ACT-017 ACT-071 ACT-115 starts as a wizard of 3 steps at step 1 without brt_auth; Save and Reset wait for name, description and type; Cancel returns to the Actions', async () => {
    const { page } = b;
    await signInAs(page, 'operator', NEW_URL);
    const f = form(page);
    await f.getByRole('heading', { name: 'Add Action', level: 2 }).waitFor();
    await waitForFocused(page, 'Add Action');
    expect(await f.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Name\/Description/ }).getAttribute('aria-current')).toBe('step');
    expect(await f.getByRole('navigation', { name: 'Steps' }).getByRole('button').count()).toBe(3);
    expect(await f.getByLabel('VID Override').count()).toBe(0);
    const save = f.getByRole('group', { name: 'Form actions' }).getByRole('button', { name: 'Save' });
    const reset = f.getByRole('group', { name: 'Form actions' }).getByRole('button', { name: 'Reset' });
    expect(await save.isDisabled()).toBe(true);
    expect(await reset.isDisabled()).toBe(true);
    await f.getByLabel('Name', { exact: true }).fill('Shell test');
    await f.getByLabel('Description', { exact: true }).fill('A description');
    expect(await save.isDisabled()).toBe(true);
    await f.getByLabel('Action Type').selectOption('dns');
    expect(await save.isDisabled()).toBe(false);
    expect(await reset.isDisabled()).toBe(false);

    // Continue / Previous, clickable step numbers, and the toggle.
    await f.getByRole('button', { name: 'Continue' }).click();
    await f.getByLabel('Domain', { exact: true }).waitFor();
    expect(await f.getByLabel('Name', { exact: true }).count()).toBe(0);
    await f.getByRole('button', { name: 'Continue' }).click();
    await f.getByRole('button', { name: /^Attack Vector/ }).waitFor();
    await f.getByRole('button', { name: 'Previous' }).click();
    await f.getByLabel('Domain', { exact: true }).waitFor();
    await gotoStep(f, 'Name/Description');
    await f.getByLabel('Name', { exact: true }).waitFor();
    await f.getByRole('button', { name: 'Show All Steps' }).click();
    await f.getByRole('button', { name: 'Show As Wizard' }).waitFor();
    expect(await f.getByLabel('Name', { exact: true }).isVisible()).toBe(true);
    expect(await f.getByLabel('Domain', { exact: true }).isVisible()).toBe(true);
    expect(await f.getByRole('button', { name: 'Continue' }).count()).toBe(0);

    // Description preview: rendered Markdown, markup shown as text.
    await f.getByLabel('Description', { exact: true }).fill('# Title\n\n**bold** and <script>window.hacked=1</script> [x](javascript:alert(1))');
    await f.getByRole('button', { name: 'Preview description' }).click();
    const preview = page.getByRole('dialog', { name: 'Description Preview' });
    await preview.getByRole('heading', { name: 'Title' }).waitFor();
    expect(await preview.locator('strong').innerText()).toBe('bold');
    expect(await preview.getByText('<script>window.hacked=1</script>', { exact: false }).count()).toBe(1);
    expect(await preview.locator('a').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
    await preview.getByRole('button', { name: 'OK' }).click();
    await preview.waitFor({ state: 'hidden' });

    // Header Cancel: the unsaved changes are confirmed away, and the Actions list shows again.
    await f.getByRole('group', { name: 'Form actions' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: 'Unsaved Changes' }).getByRole('button', { name: 'Discard Changes' }).click();
    await waitForPath(page, '/manage_sims/actions');
    expect(await form(page).count()).toBe(0);
  });

  it('ACT-013 ACT-014 ACT-086 with brt_auth the form starts with all steps and offers the VID override; a taken VID is a server error on the field', async () => {
    const { page } = b;
    // The taken VID is refused on purpose (400).
    b.allowConsole(/status of 400 \(Bad Request\) \(.*\/manage_sims\/actions\.json\)$/);
    await signInAs(page, 'admin', `${NEW_URL}?action_type=sleep`);
    const f = form(page);
    await f.getByRole('button', { name: 'Show As Wizard' }).waitFor();
    await fillTestValues(page, f, 'sleep');
    const [taken] = (await api<{ data: PickerAction[] }>(page, '/manage_sims/actions/picker.json')).data;
    await f.getByLabel('VID Override').fill(taken!.vid);
    await page.keyboard.press('Control+s');
    await toast(page, MSG_SAVE_FAILED).waitFor();
    const vidField = f.getByLabel('VID Override').locator('xpath=..');
    expect(await fieldError(vidField).innerText()).toBe('has already been taken');
    expect(pathOf(page)).toContain(NEW_URL);
  });

  it('ACT-072 ACT-073 ACT-106 shows the spec texts: no type, must be filled, port syntax, host_cli syntax inline', async () => {
    const { page } = b;
    const f = await signInToNew(page, 'operator');
    await f.getByLabel('Name', { exact: true }).fill('Validation test');
    await f.getByLabel('Description', { exact: true }).fill('Checks messages');
    await page.keyboard.press('Control+s');
    await toast(page, MSG_SELECT_TYPE).waitFor();
    expect(await f.getByText('Select an Action Type.').isVisible()).toBe(true);

    await f.getByLabel('Action Type').selectOption('port_scan');
    await gotoStep(f, 'Action Details');
    await f.getByLabel('Ports', { exact: true }).fill('22,,80-70');
    await page.keyboard.press('Control+s');
    await toast(page, MSG_SAVE_FAILED).waitFor();
    // The wizard moves to the first step with an error: step 2 here (the dimensions of step 3 too).
    const portsField = f.getByLabel('Ports', { exact: true }).locator('xpath=..');
    expect(await fieldError(portsField).innerText()).toMatch(/empty entry/);
    await f.getByLabel('Ports', { exact: true }).fill('1,2,3,5-9,11,#3389');
    await eventually(() => fieldError(portsField).count(), 0, 'the ports error clears as the user types');
    await gotoStep(f, 'Tags/Dimensions');
    const covert = f.getByText('Covert', { exact: true }).locator('xpath=..');
    expect(await fieldError(covert).innerText()).toBe('must be filled');
    expect(await f.getByTestId('error-summary').isVisible()).toBe(true);

    // host_cli: inline diagnostics as the user types, then the field error on save.
    await gotoStep(f, 'Name/Description');
    await f.getByLabel('Action Type').selectOption('host_cli');
    await gotoStep(f, 'Action Details');
    const editor = f.locator('[data-code-editor="host_cli_action.raw_text"] .cm-content');
    await editor.click();
    await page.keyboard.type('whoami\n  auto 4 maybe 60\n');
    await f.locator('.cm-lintRange-error').first().waitFor();
    await page.keyboard.press('Control+s');
    await toast(page, MSG_SAVE_FAILED).waitFor();
    await eventually(async () => (await f.locator('[data-code-editor="host_cli_action.raw_text"]').locator('xpath=..').locator('[data-field-error]').innerText()).startsWith('line 2: check_logs_boolean must be true or false'), true, 'the script error names the line');
  });

  it("ACT-073 ACT-076 host_cli: a blank script says can't be blank and a file without a destination directory says must be filled, under their fields", async () => {
    const { page } = b;
    const f = await openFilledDetails(page, 'host_cli', 'operator');
    await f.locator('[data-code-editor="host_cli_action.raw_text"] .cm-content').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    const files = f.getByRole('table', { name: 'Host CLI files' });
    await files.getByLabel('Destination Directory').fill('');
    await page.keyboard.press('Control+s');
    await toast(page, MSG_SAVE_FAILED).waitFor();
    const scriptField = f.locator('[data-code-editor="host_cli_action.raw_text"]').locator('xpath=..');
    await eventually(() => fieldError(scriptField).allInnerTexts(), ["can't be blank"], 'the blank script error is under the script editor');
    expect(await fieldError(files).allInnerTexts()).toEqual(['must be filled']);
    await files.getByLabel('Destination Directory').fill('C:/temp/');
    await eventually(() => fieldError(files).count(), 0, 'the destination error clears once a directory is typed');
  });

  it('ACT-075 ACT-068 ACT-119 file_transfer: one file at a time, content encoding list and period errors under the field, app layer sets the port', async () => {
    const { page } = b;
    const f = await openFilledDetails(page, 'file_transfer', 'operator');
    const addFile = f.getByRole('button', { name: '+ Add File' });
    expect(await addFile.isDisabled()).toBe(true);
    expect(await f.getByText('Malicious File Transfer accepts one attached file at a time: remove it to attach another.').isVisible()).toBe(true);

    const encoding = f.getByLabel('Content Encoding', { exact: true });
    const encodingField = encoding.locator('xpath=..');
    await encoding.fill('.zip');
    await page.keyboard.press('Control+s');
    await toast(page, MSG_SAVE_FAILED).waitFor();
    await eventually(() => fieldError(encodingField).allInnerTexts(), ['must not contain a period: write zip, not .zip'], 'the period error is under Content Encoding');
    await encoding.fill('zip,lzma');
    await eventually(() => fieldError(encodingField).allInnerTexts(), ['"lzma" is not one of zip, gzip, bzip2, tar, rar, 7zip (separate several with commas)'], 'the list error names the bad entry');
    await encoding.fill('zip,gzip,bzip2,tar,rar,7zip');
    await eventually(() => fieldError(encodingField).count(), 0, 'every listed encoding is accepted');

    const appLayer = f.getByLabel('App Layer', { exact: true });
    const port = f.getByLabel('Target Port', { exact: true });
    for (const [layer, expected] of [['ftp', '21'], ['http', '80'], ['https', '443'], ['scp', '25'], ['8443', '8443']] as const) {
      await appLayer.fill(layer);
      await eventually(() => port.inputValue(), expected, `app layer ${layer} sets the port`);
    }
    await appLayer.fill('scp');
    expect(await f.getByLabel('Tunnel Protocol').locator('option').allInnerTexts()).not.toContain('SSH');

    await f.getByRole('button', { name: 'Remove', exact: true }).click();
    await toast(page, 'Successfully unattached file').waitFor();
    expect(await addFile.isDisabled()).toBe(false);
  });

  it('ACT-080 numbers outside the limits of the form definition show min and max errors under their fields', async () => {
    const { page } = b;
    await signInAs(page, 'operator');
    const def = await api<FormDefinition>(page, '/manage_sims/actions/form_definition.json');
    let f = await openFilledDetails(page, 'captive_ioc_url');
    const timeout = f.getByLabel('Timeout (ms)', { exact: true });
    await timeout.fill(String(def.limits.captive_ioc_url_timeout_ms.max + def.limits.captive_ioc_url_timeout_ms.step));
    await page.keyboard.press('Control+s');
    await toast(page, MSG_SAVE_FAILED).waitFor();
    await eventually(() => fieldError(timeout.locator('xpath=..')).allInnerTexts(), [`must be at most ${def.limits.captive_ioc_url_timeout_ms.max}`], 'the timeout max error');
    await timeout.fill(String(def.limits.captive_ioc_url_timeout_ms.min - def.limits.captive_ioc_url_timeout_ms.step));
    await eventually(() => fieldError(timeout.locator('xpath=..')).allInnerTexts(), [`must be at least ${def.limits.captive_ioc_url_timeout_ms.min}`], 'the timeout min error');

    f = await openFilledDetails(page, 'website');
    const serverPort = f.getByLabel('Server Port', { exact: true });
    const respCode = f.getByLabel('Response Code', { exact: true });
    await serverPort.fill(String(def.limits.server_port.min - 1));
    await respCode.fill(String(def.limits.resp_code.max + 1));
    await page.keyboard.press('Control+s');
    await toast(page, MSG_SAVE_FAILED).waitFor();
    await eventually(() => fieldError(serverPort.locator('xpath=..')).allInnerTexts(), [`must be at least ${def.limits.server_port.min}`], 'the server port min error');
    expect(await fieldError(respCode.locator('xpath=..')).allInnerTexts()).toEqual([`must be at most ${def.limits.resp_code.max}`]);
  });

  it('ACT-071 Save and Reset are disabled while a save is in progress', async () => {
    const { page } = b;
    const f = await signInToNew(page, 'operator', 'dns');
    await fillTestValues(page, f, 'dns');
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let seen = false;
    let posts = 0;
    await page.route('**/manage_sims/actions.json', async (route) => {
      seen = true;
      posts += 1;
      await held;
      await route.continue();
    });
    const actions = f.getByRole('group', { name: 'Form actions' });
    await actions.getByRole('button', { name: 'Save' }).click();
    await eventually(() => seen, true, 'the save request was sent');
    expect(await actions.getByRole('button', { name: 'Saving…' }).isDisabled()).toBe(true);
    expect(await actions.getByRole('button', { name: 'Reset' }).isDisabled()).toBe(true);
    await page.keyboard.press('Control+s');
    release();
    await toast(page, /Action A\d{3}-\d+ was successfully created\./).waitFor();
    await waitForSavedAction(page);
    expect(posts).toBe(1);
  });

  it('ACT-062 changing the type resets the type fields and applies the type default dimensions; Reset restores the loaded values', async () => {
    const { page } = b;
    const f = await signInToNew(page, 'operator', 'dns');
    await gotoStep(f, 'Action Details');
    await f.getByLabel('Domain', { exact: true }).fill('keep.example.com');
    await gotoStep(f, 'Name/Description');
    await f.getByLabel('Action Type').selectOption('captive_dns');
    await f.getByLabel('Action Type').selectOption('dns');
    await gotoStep(f, 'Action Details');
    expect(await f.getByLabel('Domain', { exact: true }).inputValue()).toBe('');
    await gotoStep(f, 'Name/Description');
    await f.getByLabel('Action Type').selectOption('port_scan');
    await gotoStep(f, 'Tags/Dimensions');
    expect(await f.getByRole('button', { name: /^Attack Vector/ }).innerText()).toContain('Network Reconnaissance');

    // Reset of an edited Action: back to what was loaded.
    const [vendorless] = (await api<{ data: PickerAction[] }>(page, '/manage_sims/actions/picker.json')).data.filter((a) => !a.vendor && a.action_type === 'dns');
    await page.goto(`/manage_sims/actions/${vendorless!.id}/edit`);
    const e = form(page, 'action-edit');
    await e.getByRole('heading', { name: `Edit Action ${vendorless!.vid}` }).waitFor();
    const original = await e.getByLabel('Name', { exact: true }).inputValue();
    await e.getByLabel('Name', { exact: true }).fill('Changed name');
    await e.getByRole('group', { name: 'Form actions' }).getByRole('button', { name: 'Reset' }).click();
    expect(await e.getByLabel('Name', { exact: true }).inputValue()).toBe(original);
  });

  it('ACT-067 website steps: add, never remove the last, reorder only when collapsed, a collapsed step with errors is marked invalid', async () => {
    const { page } = b;
    const f = await openFilledDetails(page, 'website', 'operator');
    const steps = f.getByRole('group', { name: 'Steps' });
    expect(await steps.getByRole('button', { name: 'Remove Step 1' }).isDisabled()).toBe(true);
    await steps.getByRole('button', { name: '+ Add Step' }).click();
    expect(await steps.getByRole('button', { name: 'Remove Step 1' }).isDisabled()).toBe(false);
    await f.getByLabel('Request', { exact: true }).nth(0).fill('GET /first HTTP/1.1');
    expect(await steps.getByRole('button', { name: 'Move Step 1 down' }).count()).toBe(0);
    await steps.getByRole('button', { name: 'Collapse All' }).click();
    await steps.getByRole('button', { name: 'Move Step 1 down' }).click();
    await page.keyboard.press('Control+s');
    await toast(page, MSG_SAVE_FAILED).waitFor();
    // The new (empty) step is now first: collapsed, with errors, marked invalid.
    const first = steps.locator('li[data-step-index="0"]');
    await first.getByText('Invalid').waitFor();
    expect(await steps.locator('li[data-step-index="1"]').getByText('Invalid').count()).toBe(0);
    await steps.getByRole('button', { name: 'Expand All' }).click();
    expect(await f.getByLabel('Request', { exact: true }).nth(1).inputValue()).toBe('GET /first HTTP/1.1');
  });

  it('a draft survives a reload, is offered back, restored, and dropped after the save', async () => {
    const { page } = b;
    const f = await signInToNew(page, 'operator', 'captive_dns');
    await fillTestValues(page, f, 'captive_dns');
    const name = `Draft ${crypto.randomBytes(3).toString('hex')}`;
    await f.getByLabel('Name', { exact: true }).fill(name);
    await waitForDraftWith(page, name);
    await page.reload();
    const again = form(page);
    await again.getByTestId('draft-offer').waitFor();
    expect(await again.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    await again.getByRole('button', { name: 'Restore Draft' }).click();
    expect(await again.getByLabel('Name', { exact: true }).inputValue()).toBe(name);
    await saveAndLeave(page, 'created');
    await eventually(async () => (await draftTexts(page)).length, 0, 'the draft is dropped after the save');
    await page.goto(`${NEW_URL}?action_type=captive_dns`);
    await form(page).getByRole('heading', { name: 'Add Action', level: 2 }).waitFor();
    expect(await form(page).getByTestId('draft-offer').count()).toBe(0);
  });

  it('a draft survives closing the pane: reopening New Action offers it back with every value', async () => {
    const { page } = b;
    const f = await signInToNew(page, 'operator', 'captive_dns');
    await fillTestValues(page, f, 'captive_dns');
    const name = `Closed ${crypto.randomBytes(3).toString('hex')}`;
    await f.getByLabel('Name', { exact: true }).fill(name);
    await showAllSteps(f);
    const entered = await formSnapshot(f);
    await waitForDraftWith(page, name);
    // Close the pane (Close Pane, alt+w) without saving; no page load happens.
    await f.getByLabel('Name', { exact: true }).press('Alt+KeyW');
    await eventually(() => form(page).count(), 0, 'the Add Action pane is closed');
    await page.keyboard.press('Control+k');
    await paletteInput(page).fill('New Action');
    await page.keyboard.press('Enter');
    const again = form(page);
    await again.getByTestId('draft-offer').waitFor();
    await again.getByRole('button', { name: 'Restore Draft' }).click();
    await showAllSteps(again);
    await eventually(async () => {
      const shown = await formSnapshot(again);
      return Object.fromEntries(Object.keys(entered).map((k) => [k, shown[k]]));
    }, entered, 'every value of the closed form is restored');
  });

  it('ACT-011 the whole flow by keyboard alone: palette, form with autofocus, save', async () => {
    const { page } = b;
    await signInAs(page, 'operator');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('New Action');
    await page.keyboard.press('Enter');
    const f = form(page);
    await f.getByRole('heading', { name: 'Add Action', level: 2 }).waitFor();
    // A fresh browser has no draft: the form opens with the focus in Name (autofocus), no click needed.
    expect(await f.getByTestId('draft-offer').count()).toBe(0);
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('name')), 'sim_action.name', 'the Name field has the focus');
    const name = `Keyboard ${crypto.randomBytes(3).toString('hex')}`;
    await page.keyboard.type(name);
    await page.keyboard.press('Tab');
    await page.keyboard.type('DNS Query');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Made with the keyboard only.');
    await page.keyboard.press('Alt+KeyN');
    await eventually(() => page.evaluate(() => document.activeElement?.tagName), 'SELECT', 'step 2 puts the focus on its first field');
    await page.keyboard.press('Tab');
    await page.keyboard.type('keyboard.example-bad.com');
    await page.keyboard.press('Alt+KeyN');
    // Step 3: Tags, User Tags, then the dimension pickers; pick the first value where none is set.
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      const label = await page.evaluate(() => document.activeElement?.getAttribute('aria-haspopup') === 'tree' ? (document.activeElement as HTMLElement).innerText : null);
      if (label && label.includes('Select…')) {
        await page.keyboard.press('Enter');
        await page.keyboard.press('Enter');
      }
    }
    await page.keyboard.press('Control+s');
    await toast(page, /was successfully created/).waitFor();
    await waitForSavedAction(page);
    const created = await idOf(page, name);
    const loaded = await api<LoadedAction>(page, `/manage_sims/actions/${created.id}/form.json`);
    expect(loaded.values.dns_action?.domain).toBe('keyboard.example-bad.com');
    expect(loaded.values.trees.every((t) => t.id !== null)).toBe(true);
  });
});

describe('Action form: palette picker and help pages', () => {
  const b = useBrowser(() => baseUrl);

  it('Edit Action… opens a fuzzy action picker; Enter opens the form titled with the VID', async () => {
    const { page } = b;
    await signInAs(page, 'operator');
    const [target] = (await api<{ data: PickerAction[] }>(page, '/manage_sims/actions/picker.json')).data.filter((a) => !a.vendor && a.action_type === 'port_scan');
    await page.keyboard.press('Control+k');
    await paletteInput(page).fill('Edit Action…');
    await page.getByRole('option', { name: /^Edit Action…/ }).click();
    const picker = page.getByRole('combobox', { name: 'Action to edit' });
    await picker.waitFor();
    await picker.fill(target!.vid);
    await page.getByRole('listbox', { name: 'Actions' }).getByText(target!.name).waitFor();
    await picker.press('Enter');
    await waitForFocused(page, `Edit Action ${target!.vid}`);
    await waitForPath(page, `/manage_sims/actions/${target!.id}/edit`);
  });

  it('ACT-020 Need Help opens the host_cli help in a new tab, the python help for the python shell', async () => {
    const { page, context } = b;
    const f = await signInToNew(page, 'operator', 'host_cli');
    await gotoStep(f, 'Action Details');
    const [help] = await Promise.all([context.waitForEvent('page'), f.getByRole('link', { name: 'Need Help?' }).click()]);
    await help.getByRole('heading', { name: 'Host CLI command syntax' }).waitFor();
    expect(new URL(help.url()).pathname).toBe('/manage_sims/actions/host_cli_help_info');
    await f.getByLabel('Shell', { exact: true }).selectOption('python');
    expect(await f.getByRole('link', { name: 'Need Help?' }).getAttribute('href')).toBe('/manage_sims/actions/host_cli_python_help_info');
    expect(await f.getByRole('link', { name: 'Need Help?' }).getAttribute('target')).toBe('_blank');
  });
});

/** The code editor of a field: its rendered height in px and the tab size CodeMirror gives its content. */
async function editorMetrics(f: Locator, field: string): Promise<{ height: number; tabSize: string }> {
  return f.locator(`[data-code-editor="${field}"]`).evaluate((el) => ({
    height: Math.round(el.querySelector<HTMLElement>('.cm-editor')!.getBoundingClientRect().height),
    tabSize: getComputedStyle(el.querySelector<HTMLElement>('.cm-content')!).tabSize,
  }));
}

describe('Action form: the sections of each type', () => {
  const b = useBrowser(() => baseUrl);
  const visible = async (scope: Locator, label: string) => expect(await scope.getByLabel(label, { exact: true }).first().isVisible(), label).toBe(true);

  it('ACT-021 ACT-087 ACT-117 host_cli: file table, Advanced Options open by default, run-as, protected-actor radios, shell, Need Help, a 400px script and a 200px cleanup script with tab size 2', async () => {
    const { page } = b;
    const f = await openFilledDetails(page, 'host_cli', 'operator');
    await f.getByRole('table', { name: 'Host CLI files' }).waitFor();
    expect(await f.getByRole('button', { name: /Advanced Options/ }).getAttribute('aria-expanded')).toBe('true');
    for (const label of ['Delivery Wait Time (s)', 'Delivery Failed Result', 'Destination Exists Result', 'Monitor Network Connections', 'Separate Cleanup Shell', 'Automatic File Cleanup', 'Run-as User Profile', 'Require Run as Interactive', 'Shell']) {
      await visible(f, label);
    }
    const protectedActor = f.getByRole('group', { name: 'Protected actor' });
    expect(await protectedActor.getByText('Require Protected Theater').isVisible()).toBe(true);
    expect(await protectedActor.getByText('Approve to Run Anywhere').isVisible()).toBe(true);
    expect(await f.getByRole('link', { name: 'Need Help?' }).isVisible()).toBe(true);
    // The director's form definition supplies no execution plan here, so its text area is absent.
    expect(await f.getByLabel('Execution Plan', { exact: true }).count()).toBe(0);
    expect(await editorMetrics(f, 'host_cli_action.raw_text')).toEqual({ height: 400, tabSize: '2' });
    expect(await editorMetrics(f, 'host_cli_action.cleanup_raw_text')).toEqual({ height: 200, tabSize: '2' });
    // Collapsing Advanced Options hides its fields.
    await f.getByRole('button', { name: /Advanced Options/ }).click();
    expect(await f.getByLabel('Delivery Wait Time (s)', { exact: true }).count()).toBe(0);
  });

  it('ACT-022 file_transfer: one attached file, user agent, content encoding, app layer, tunnel protocol, method, target port, tunnel CIDR and DNS fields, and a link that opens a DNS Action for the domain', async () => {
    const { page } = b;
    const f = await openFilledDetails(page, 'file_transfer', 'operator');
    expect(await f.getByRole('button', { name: '+ Add File' }).isDisabled()).toBe(true);
    for (const label of ['User Agent', 'Content Encoding', 'App Layer', 'Tunnel Protocol', 'Method', 'Target Port', 'Tunnel CIDR', 'DNS Domain', 'DNS Server IP']) await visible(f, label);
    // The link to a malicious DNS Action for the tunnel's domain, and the form it opens, filled in.
    const link = new URL((await f.getByRole('link', { name: 'Create a malicious DNS Action for this domain' }).getAttribute('href'))!, baseUrl);
    expect(link.pathname).toBe(NEW_URL);
    expect(Object.fromEntries(link.searchParams)).toMatchObject({ action_type: 'dns', domain: 'tunnel.example-bad.com', dns_name: 'DNS Query - tunnel.example-bad.com', dns_desc: expect.stringContaining('tunnel.example-bad.com') });
    await page.goto(link.pathname + link.search);
    const dns = form(page);
    await dns.getByRole('heading', { name: 'Add Action', level: 2 }).waitFor();
    if (await dns.getByRole('button', { name: 'Discard Draft' }).count()) await dns.getByRole('button', { name: 'Discard Draft' }).click();
    await eventually(() => dns.getByLabel('Name', { exact: true }).inputValue(), 'DNS Query - tunnel.example-bad.com', 'the name comes from dns_name');
    expect(await dns.getByLabel('Action Type').inputValue()).toBe('dns');
    await gotoStep(dns, 'Action Details');
    expect(await dns.getByLabel('Domain', { exact: true }).inputValue()).toBe('tunnel.example-bad.com');
  });

  it('ACT-024 ACT-025 ACT-026 port_scan, socket and website show their fields and ordered steps', async () => {
    const { page } = b;
    await signInAs(page, 'operator');
    let f = await openFilledDetails(page, 'port_scan');
    for (const label of ['Ports', 'Sleep Timer (ms)', 'Randomize Scan']) await visible(f, label);
    f = await openFilledDetails(page, 'socket');
    for (const label of ['Communication Type', 'Server Port']) await visible(f, label);
    // The test values hold two socket steps and one website step, in an ordered list.
    expect(await f.getByRole('group', { name: 'Steps' }).getByRole('list').getByRole('listitem').count()).toBe(2);
    f = await openFilledDetails(page, 'website');
    for (const label of ['Server Port', 'HTTP Version', 'Use HTTPS']) await visible(f, label);
    expect(await f.getByRole('group', { name: 'Steps' }).getByRole('list').getByRole('listitem').count()).toBe(1);
  });

  it('ACT-027 ACT-117 cloud: inputs, outputs, ordered scripts with a 400px tab size 4 editor, and attached files', async () => {
    const { page } = b;
    const f = await openFilledDetails(page, 'cloud', 'operator');
    for (const name of ['Inputs', 'Cloud files']) expect(await f.getByRole('table', { name }).isVisible(), name).toBe(true);
    expect(await f.getByRole('heading', { name: 'Outputs' }).isVisible()).toBe(true);
    expect(await f.getByRole('heading', { name: 'Scripts' }).isVisible()).toBe(true);
    expect(await f.getByRole('group', { name: 'Scripts' }).getByRole('list').getByRole('listitem').count()).toBe(3);
    expect(await editorMetrics(f, 'cloud_action.scripts.0.script_text')).toEqual({ height: 400, tabSize: '4' });
  });
});

describe('Action form: files', () => {
  const b = useBrowser(() => baseUrl);

  async function uploadThroughModal(page: Page, f: Locator, file: { name: string; buffer: Buffer }, opts: { restriction: string; zipPassword?: string }) {
    await f.getByRole('button', { name: '+ Add File' }).click();
    const modal = page.getByRole('dialog', { name: 'Add File Attachment' });
    await modal.getByRole('tab', { name: 'File Upload' }).click();
    await modal.getByLabel('File', { exact: true }).setInputFiles({ name: file.name, mimeType: 'application/octet-stream', buffer: file.buffer });
    await modal.getByLabel('File Restrictions').selectOption(opts.restriction);
    if (opts.zipPassword !== undefined) {
      await modal.getByLabel('Zip file: list and hash its entries').check();
      await modal.getByLabel('Zip Password').fill(opts.zipPassword);
    }
    await modal.getByRole('button', { name: 'Upload and Attach' }).click();
    return modal;
  }

  it('ACT-018 ACT-019 ACT-070 ACT-074 ACT-101 ACT-110 uploads a file (sha256 shown), refuses a second attach with the spec text, unattaches', async () => {
    const { page } = b;
    const f = await signInToNew(page, 'operator', 'email');
    await gotoStep(f, 'Action Details');
    const content = crypto.randomBytes(4096);
    const sha = crypto.createHash('sha256').update(content).digest('hex');
    const modal = await uploadThroughModal(page, f, { name: 'e2e-upload.bin', buffer: content }, { restriction: 'none' });
    await toast(page, 'Successfully uploaded and attached file').waitFor();
    await modal.waitFor({ state: 'hidden' });
    const table = f.getByRole('table', { name: 'Email attachments' });
    await table.getByText('e2e-upload.bin').waitFor();
    expect(await table.getByText(sha).count()).toBe(1);
    expect(await table.getByRole('img', { name: 'Pending Approval' }).count()).toBe(1);

    // The library tab: search, sort by id ascending, attach an attached file again -> refused.
    await f.getByRole('button', { name: '+ Add File' }).click();
    const lib = page.getByRole('dialog', { name: 'Add File Attachment' });
    await lib.getByRole('tab', { name: 'File Library', selected: true }).waitFor();
    const ids = await lib.getByRole('table', { name: 'File Library' }).locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((x, y) => x - y));
    expect(await lib.getByRole('img', { name: 'Restricted Malicious' }).count()).toBeGreaterThan(0);
    await lib.getByLabel('Search files').fill('e2e-upload');
    await eventually(() => lib.getByRole('table', { name: 'File Library' }).locator('tbody tr').count(), 1, 'the search narrows the list');
    await lib.getByLabel('Select e2e-upload.bin').check();
    await lib.getByRole('button', { name: 'Attach Selected' }).click();
    await toast(page, 'Cannot attach a file that is already attached to the Action').waitFor();
    await lib.getByLabel('Search files').fill('eicar.com');
    await lib.getByLabel('Select eicar.com').waitFor();
    await lib.getByLabel('Select eicar.com').check();
    await lib.getByRole('button', { name: 'Attach Selected' }).click();
    await toast(page, 'Successfully attached file').waitFor();
    await table.getByText('eicar.com').waitFor();
    await table.getByRole('row').filter({ hasText: 'eicar.com' }).getByRole('button', { name: 'Remove' }).click();
    await toast(page, 'Successfully unattached file').waitFor();
    expect(await table.getByText('eicar.com').count()).toBe(0);
  });

  it('ACT-109 an upload without a file says An error occurred. with can\'t be blank; a password-protected zip lists its entries', async () => {
    const { page } = b;
    // The upload without a file and the wrong zip password are refused on purpose (400).
    b.allowConsole(/status of 400 \(Bad Request\) \(.*\/manage_sims\/file_transfer_libraries\.json\)$/);
    const f = await signInToNew(page, 'operator', 'host_cli');
    await gotoStep(f, 'Action Details');
    await f.getByRole('button', { name: '+ Add File' }).click();
    const modal = page.getByRole('dialog', { name: 'Add File Attachment' });
    await modal.getByRole('tab', { name: 'File Upload' }).click();
    await modal.getByRole('button', { name: 'Upload and Attach' }).click();
    await modal.getByText('An error occurred.').waitFor();
    expect(await modal.locator('[data-field-error]').allInnerTexts()).toEqual(["can't be blank", "can't be blank"]);
    await modal.getByRole('button', { name: 'Cancel' }).click();

    const inner = Buffer.from('inside the locked zip\n');
    const zip = buildZip([{ name: 'readme.txt', content: inner }], { password: 'infected' });
    const wrong = await uploadThroughModal(page, f, { name: 'locked.zip', buffer: zip }, { restriction: 'restricted_malicious', zipPassword: 'nope' });
    await wrong.getByText('The zip password is wrong').waitFor();
    await wrong.getByLabel('Zip Password').fill('infected');
    await wrong.getByRole('button', { name: 'Upload and Attach' }).click();
    await toast(page, 'Successfully uploaded and attached file').waitFor();
    const entries = wrong.getByRole('table', { name: 'Zip entries' });
    await entries.getByText('readme.txt').waitFor();
    expect(await entries.getByText(crypto.createHash('sha256').update(inner).digest('hex')).count()).toBe(1);
    await wrong.getByRole('button', { name: 'Done' }).click();
    const files = f.getByRole('table', { name: 'Host CLI files' });
    await files.getByText('locked.zip').waitFor();
    expect(await files.getByLabel('Destination Directory').inputValue()).toBe('C:/users/public/documents/');
    // A malicious file forces Require Protected Theater.
    const protectedGroup = f.getByRole('group', { name: 'Protected actor' });
    await eventually(() => protectedGroup.getByRole('radio', { name: 'Yes' }).first().isChecked(), true, 'Require Protected Theater is set');
    expect(await protectedGroup.getByRole('radio', { name: 'Yes' }).first().isDisabled()).toBe(true);
  });

  it('ACT-064 ACT-084 cloud save modal: an approver gets Approve Now, which waits for no pending file; a malicious file makes the Action ineligible', async () => {
    const { page } = b;
    const f = await signInToNew(page, 'approver', 'cloud');
    await fillTestValues(page, f, 'cloud');
    const name = `Cloud modal ${crypto.randomBytes(3).toString('hex')}`;
    await f.getByLabel('Name', { exact: true }).fill(name);
    await gotoStep(f, 'Action Details');
    await uploadThroughModal(page, f, { name: 'cloud-helper.py', buffer: Buffer.from('print(1)\n') }, { restriction: 'pending_approval' });
    await toast(page, 'Successfully uploaded and attached file').waitFor();
    await page.keyboard.press('Control+s');
    const modal = page.getByRole('dialog', { name: 'Save Cloud Action' });
    await modal.getByRole('checkbox').waitFor();
    await modal.getByText('A file attached to this action is in a Pending status and requires approval by a user with permission before this action can be run.').waitFor();
    const queue = modal.getByRole('button', { name: 'Add to Approval Queue' });
    const approveNow = modal.getByRole('button', { name: 'Approve Now' });
    expect([await queue.isDisabled(), await approveNow.isDisabled()]).toEqual([true, true]);
    await modal.getByRole('checkbox').check();
    expect([await queue.isDisabled(), await approveNow.isDisabled()]).toEqual([false, true]);
    await queue.click();
    await toast(page, /was successfully created/).waitFor();

    // The approver restricts the pending file as malicious; the Action is no longer eligible.
    const created = await idOf(page, name);
    const loaded = await api<LoadedAction>(page, `/manage_sims/actions/${created.id}/form.json`);
    const pendingFile = loaded.files.find((x) => x.orig_file_name === 'cloud-helper.py')!;
    const res = await page.request.put(`/manage_sims/actions/${created.id}/files/${pendingFile.id}/restrict.json`, { headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-CSRF-Token': await csrf(page) } });
    expect(res.status()).toBe(200);
    await page.goto(`/manage_sims/actions/cloud_action/${created.id}/edit`);
    const e = form(page, 'action-edit');
    await e.getByRole('heading', { name: `Edit Action ${created.vid}` }).waitFor();
    await page.keyboard.press('Control+s');
    const m2 = page.getByRole('dialog', { name: 'Save Cloud Action' });
    await m2.getByText('This Action is not eligible for approval because it has a file attached that is restricted as malicious.').waitFor();
    await m2.getByRole('checkbox').check();
    expect([await m2.getByRole('button', { name: 'Add to Approval Queue' }).isDisabled(), await m2.getByRole('button', { name: 'Approve Now' }).isDisabled()]).toEqual([true, true]);
    await m2.getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('Action form: PCAP upload step', () => {
  const b = useBrowser(() => baseUrl);
  const fixture = (name: string) => path.join(REPO_ROOT, 'tests', 'fixtures', 'pcap', name);

  it('ACT-023 ACT-069 ACT-095 a chosen capture is uploaded, polled and listed; the first conversation fills the addresses; Save creates the PCAP Action', async () => {
    const { page } = b;
    const f = await signInToNew(page, 'operator', 'pcap');
    await fillTestValues(page, f, 'pcap');
    const name = `E2E pcap ${crypto.randomBytes(3).toString('hex')}`;
    await f.getByLabel('Name', { exact: true }).fill(name);
    await gotoStep(f, 'Action Details');
    await f.getByLabel('PCAP File').setInputFiles(fixture('two-ips-tcp.pcap'));
    const table = f.getByRole('table', { name: 'Conversations' });
    await table.getByRole('button', { name: /^Remove conversation/ }).first().waitFor({ timeout: 30_000 });
    expect(await f.getByLabel('Attacker IP').inputValue()).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(await f.getByLabel('Destination IP').inputValue()).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    await saveAndLeave(page, 'created');
    const created = await idOf(page, name);
    expect(created.action_type).toBe('pcap');
  });

  it('ACT-108 a capture with more than two addresses fails with the red bar and the flash, and clears the upload', async () => {
    const { page } = b;
    const f = await signInToNew(page, 'operator', 'pcap');
    await gotoStep(f, 'Action Details');
    await f.getByLabel('PCAP File').setInputFiles(fixture('three-ips.pcap'));
    await f.getByText('Error - 100%').waitFor({ timeout: 30_000 });
    await toast(page, /^Warning! Validation errors kept this Action from saving successfully\. Error: More than two unique IPs/).waitFor();
    // The upload record's notifications say why, below the progress bar.
    await f.getByRole('list', { name: 'Notifications' }).getByText(/^The conversations involve 3 unique IP addresses/).waitFor();
  });
});
