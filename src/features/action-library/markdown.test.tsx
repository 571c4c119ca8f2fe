import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, safeHref } from './markdown';

describe('Markdown descriptions, rendered safely', () => {
  it('renders headings, lists, code, emphasis and links', () => {
    const { container } = render(
      <Markdown source={'# Title\n\nRuns `whoami` with **care** and *style*.\n\n- one\n- two\n\n1. first\n\n```\nline 1\nline 2\n```\n\nSee [docs](https://attack.mitre.org/techniques/T1059/).'} />,
    );
    expect(container.querySelector('h3')?.textContent).toBe('Title');
    expect(container.querySelector('code')?.textContent).toBe('whoami');
    expect(container.querySelector('strong')?.textContent).toBe('care');
    expect(container.querySelector('em')?.textContent).toBe('style');
    expect([...container.querySelectorAll('ul li')].map((l) => l.textContent)).toEqual(['one', 'two']);
    expect(container.querySelector('ol li')?.textContent).toBe('first');
    expect(container.querySelector('pre')?.textContent).toBe('line 1\nline 2');
    const a = container.querySelector('a');
    expect(a?.getAttribute('href')).toBe('https://attack.mitre.org/techniques/T1059/');
    expect(a?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows raw HTML as text and drops unsafe link targets', () => {
    const { container } = render(<Markdown source={'<img src=x onerror="alert(1)"><script>alert(2)</script> [click](javascript:alert(3)) [data](data:text/html,x)'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('<script>alert(2)</script>');
    expect(container.textContent).toContain('click');
    expect(safeHref('//evil.example/x')).toBeNull();
    expect(safeHref('/jobs/12')).toBe('/jobs/12');
  });
});
