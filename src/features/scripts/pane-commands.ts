import { defineCommand } from '@/commands/registry';
import type { AnyCommand } from '@/commands/types';
import { scriptsPaneBridge } from './pane-bridge';

const inPane = () => scriptsPaneBridge.run !== null;

function call<K extends 'run' | 'dryRun' | 'save'>(key: K) {
  const fn = scriptsPaneBridge[key];
  if (!fn) throw new Error('Open the Scripts pane first');
  return fn();
}

/** Keys of the Scripts pane: they act on the script in the focused pane. */
export const scriptPaneCommands: AnyCommand[] = [
  defineCommand({ id: 'scripts.runCurrent', title: 'Run Script in Pane', category: 'Scripts', hotkey: 'mod+enter', hotkeyContext: 'scripts', needsWorkbench: true, when: inPane, run: () => call('run') }),
  defineCommand({ id: 'scripts.dryRunCurrent', title: 'Dry Run Script in Pane', category: 'Scripts', hotkey: 'mod+shift+enter', hotkeyContext: 'scripts', needsWorkbench: true, when: inPane, run: () => call('dryRun') }),
  defineCommand({ id: 'scripts.saveCurrent', title: 'Save Script in Pane', category: 'Scripts', hotkey: 'mod+s', hotkeyContext: 'scripts', needsWorkbench: true, when: inPane, run: () => call('save') }),
  defineCommand({
    id: 'scripts.stopCurrent',
    title: 'Stop Running Script',
    category: 'Scripts',
    hotkey: 'mod+.',
    hotkeyContext: 'scripts',
    needsWorkbench: true,
    when: () => scriptsPaneBridge.stop !== null,
    run: () => scriptsPaneBridge.stop?.(),
  }),
];
