import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileInput } from './file-input';

afterEach(() => {
  document.body.innerHTML = '';
});

const field = (multiple: boolean, onFiles: (f: File[]) => void) =>
  render(
    <>
      <label htmlFor="f">File</label>
      <FileInput id="f" multiple={multiple} onFiles={onFiles} />
    </>,
  );

describe('file input', () => {
  it("JOB-068 the button reads 'Browse…' and opens the chooser; one file, or several when multiple", async () => {
    const onFiles = vi.fn();
    field(false, onFiles);
    const input = screen.getByLabelText<HTMLInputElement>('File');
    const opened = vi.fn();
    input.addEventListener('click', opened);
    await userEvent.click(screen.getByRole('button', { name: 'Browse…' }));
    expect(opened).toHaveBeenCalled();
    expect(input.multiple).toBe(false);
    expect(screen.getByRole('status').textContent).toBe('No file chosen');
    await userEvent.upload(input, new File(['a'], 'one.bin'));
    expect(onFiles).toHaveBeenLastCalledWith([expect.objectContaining({ name: 'one.bin' })]);
    expect(screen.getByRole('status').textContent).toBe('one.bin');
    document.body.innerHTML = '';

    field(true, onFiles);
    const many = screen.getByLabelText<HTMLInputElement>('File');
    expect(many.multiple).toBe(true);
    await userEvent.upload(many, [new File(['a'], 'a.txt'), new File(['b'], 'b.txt')]);
    expect(onFiles.mock.lastCall?.[0].map((f: File) => f.name)).toEqual(['a.txt', 'b.txt']);
    expect(screen.getByRole('status').textContent).toBe('a.txt, b.txt');
  });
});
