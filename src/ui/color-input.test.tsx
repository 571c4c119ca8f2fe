import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { BannerPreview, WarningBanner } from './banners';
import { ColorInput } from './color-input';

function Picker({ initial = '' }: { initial?: string }) {
  const [v, setV] = useState(initial);
  return (
    <>
      <ColorInput label="Banner colour" value={v} onChange={setV} />
      <output aria-label="value">{v}</output>
    </>
  );
}

describe('banners and the colour picker', () => {
  it('MON-027 the warning banner is an alert named Warning, closable when asked, painted in a chosen colour with readable text', async () => {
    render(
      <>
        <WarningBanner>Disk nearly full</WarningBanner>
        <WarningBanner closable color="#FFC107">
          Maintenance tonight
        </WarningBanner>
      </>,
    );
    const [plain, painted] = screen.getAllByRole('alert', { name: 'Warning' });
    expect(plain!.textContent).toBe('Disk nearly full');
    expect(plain!.querySelector('button')).toBeNull();
    expect(painted!.style.backgroundColor).toBe('rgb(255, 193, 7)');
    expect(painted!.style.color).toBe('rgb(17, 17, 17)');
    await userEvent.click(screen.getByRole('button', { name: 'Close banner' }));
    expect(screen.getAllByRole('alert', { name: 'Warning' })).toHaveLength(1);
  });

  it("MON-028 the banner preview reads 'Add a banner text to preview here' while the text is empty, then shows the banner", () => {
    const { rerender } = render(<BannerPreview text="   " />);
    const preview = screen.getByRole('figure', { name: 'Banner preview' });
    expect(preview.textContent).toContain('Add a banner text to preview here');
    expect(screen.queryByRole('alert')).toBeNull();
    rerender(<BannerPreview text="Freeze starts Friday" color="#1D4ED8" />);
    expect(screen.getByRole('alert', { name: 'Warning' }).textContent).toBe('Freeze starts Friday');
    expect(preview.textContent).not.toContain('Add a banner text');
  });

  it("MON-029 MON-114 the colour picker is a text field and a swatch; 'Please select a color' when empty, 'Invalid format. Use example: #FFFFFF' when malformed", async () => {
    render(<Picker />);
    const text = screen.getByRole('textbox', { name: 'Banner colour' });
    const swatch = screen.getByLabelText<HTMLInputElement>('Banner colour swatch');
    expect(swatch.type).toBe('color');
    await userEvent.click(text);
    await userEvent.tab();
    expect(screen.getByRole('alert').textContent).toBe('Please select a color');
    await userEvent.type(text, '#12345');
    expect(screen.getByRole('alert').textContent).toBe('Invalid format. Use example: #FFFFFF');
    expect(text.getAttribute('aria-invalid')).toBe('true');
    await userEvent.type(text, '6');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(swatch.value).toBe('#123456');
    fireEvent.input(swatch, { target: { value: '#ff0000' } });
    expect(screen.getByLabelText('value').textContent).toBe('#FF0000');
    expect((text as HTMLInputElement).value).toBe('#FF0000');
  });
});
