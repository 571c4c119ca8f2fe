import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CommandButton } from './command-menu';
import { CommandRegistry, defineCommand, emptyContext } from './registry';

function registryWith(opts: { visible?: boolean; reason?: string }) {
  const registry = new CommandRegistry(() => emptyContext());
  const run = vi.fn();
  registry.register(
    defineCommand({
      id: 'demo.save',
      title: 'Save Demo',
      buttonLabel: 'Save',
      category: 'Demo',
      hotkey: 'mod+s',
      when: () => opts.visible ?? true,
      blockedReason: () => opts.reason ?? null,
      run,
    }),
  );
  const execute = vi.spyOn(registry, 'execute');
  return { registry, run, execute };
}

describe('CommandButton', () => {
  it('shows the button label, the title with its hotkey as tooltip, and executes its command as a button', async () => {
    const { registry, run, execute } = registryWith({});
    render(<CommandButton command="demo.save" registry={registry} />);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button.getAttribute('title')).toBe('Save Demo (Ctrl+S)');
    expect(button.getAttribute('aria-keyshortcuts')).toBe('Control+S');
    fireEvent.click(button);
    await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    expect(execute.mock.calls[0]?.[0]).toBe('demo.save');
    expect(execute.mock.calls[0]?.[2]).toBe('button');
  });

  it('is disabled with the blocked reason as its tooltip', () => {
    const { registry } = registryWith({ reason: 'Nothing to save' });
    render(<CommandButton command="demo.save" registry={registry} />);
    const button = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('title')).toBe('Nothing to save');
  });

  it('is hidden when the command’s when fails', () => {
    const { registry } = registryWith({ visible: false });
    render(<CommandButton command="demo.save" registry={registry} />);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
