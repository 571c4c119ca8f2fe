import type { Page } from 'playwright-core';

/** Replaces the Scripts pane's editor text with `lines`, typed as a user would. */
export async function typeScript(page: Page, lines: string[]): Promise<void> {
  const editor = page.locator('.cm-content');
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  // Completion popups would take Enter: type each line and close any popup before the newline.
  for (const line of lines) {
    await page.keyboard.type(line);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
  }
}

/** The rows of the Scripts pane's transcript table. */
export const transcriptRows = (page: Page) => page.getByRole('table', { name: 'Transcript' }).locator('tbody tr');
