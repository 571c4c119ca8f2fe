import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HelpPane } from './help-pane';

describe('the help pane', () => {
  it("/help/api.html links the director's OpenAPI 3.1 description, opened in a tab of its own (not a pane)", async () => {
    render(<HelpPane params={{ file: 'api.html' }} setParams={() => {}} />);
    const link = await screen.findByRole('link', { name: 'OpenAPI 3.1 description' });
    expect(link.getAttribute('href')).toBe('/api/openapi.json');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('heading', { name: "The director's API" })).toBeTruthy();
  });
});
