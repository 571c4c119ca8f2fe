import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JsonViewer, JsonViewerModal } from './json-viewer';

afterEach(() => vi.useRealTimers());

describe('the JSON/text viewer', () => {
  it('MON-172 MON-020 Copy to Clipboard copies what is shown and confirms "Copied JSON to clipboard" for 2000 ms; Format JSON indents by 4', async () => {
    vi.useFakeTimers();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<JsonViewer text='{"event":"ET SCAN","severity":2,"tags":["a"]}' label="Raw event" />);
    const code = screen.getByLabelText('Raw event');
    expect(code.textContent).toBe('{\n    "event": "ET SCAN",\n    "severity": 2,\n    "tags": [\n        "a"\n    ]\n}');
    expect(code.style.height).toBe('400px');
    expect(code.style.tabSize).toBe('4');
    const format = screen.getByRole('checkbox', { name: 'Format JSON' });
    expect((format as HTMLInputElement).checked).toBe(true);
    fireEvent.click(format);
    expect(code.textContent).toBe('{"event":"ET SCAN","severity":2,"tags":["a"]}');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy to Clipboard' }));
      await Promise.resolve();
    });
    expect(writeText).toHaveBeenCalledWith('{"event":"ET SCAN","severity":2,"tags":["a"]}');
    expect(screen.getByRole('status').textContent).toBe('Copied JSON to clipboard');
    act(() => vi.advanceTimersByTime(1999));
    expect(screen.getByRole('status').textContent).toBe('Copied JSON to clipboard');
    act(() => vi.advanceTimersByTime(2));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('MON-020 text that is not JSON is shown as is, Format JSON disabled; the modal closes with Escape', async () => {
    const onClose = vi.fn();
    render(<JsonViewerModal open title="Job action details" text={'plain\tline'} onClose={onClose} />);
    expect(screen.getByRole('dialog', { name: 'Job action details' })).toBeTruthy();
    expect(screen.getByLabelText('Content').textContent).toBe('plain\tline');
    expect((screen.getByRole('checkbox', { name: 'Format JSON' }) as HTMLInputElement).disabled).toBe(true);
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });
});
