import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { FILTER_CONFIGS, emptyBuilderRule, type BuilderRule, type FilterContentType, type FilterTarget, type SavedFilterBody } from '@/api/contracts/filters';
import { FilterPanel } from './filter-panel';
import { RuleBuilder } from './rule-builder';

const server = useMswServer();
afterEach(() => {
  document.body.innerHTML = '';
});

let latest: BuilderRule = emptyBuilderRule();
function Harness({ target }: { target: FilterTarget }) {
  const [rule, setRule] = useState<BuilderRule>(emptyBuilderRule());
  latest = rule;
  return <RuleBuilder target={target} value={rule} onChange={setRule} errors={null} idPrefix="t" />;
}
const renderBuilder = (target: FilterTarget) => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Harness target={target} />
    </QueryClientProvider>,
  );
};
const where = 'rule 1, condition 1';
const box = (name: string) => screen.getByRole('combobox', { name: `${name}, ${where}` });
const firstCondition = () => latest.conditions[0]!.conditions[0]!;

describe('the rule builder (section 5)', () => {
  it('JOB-066 changing the match object resets field, operator and value; the first operator is the default', async () => {
    const user = userEvent.setup();
    renderBuilder('jobs');
    await user.click(screen.getByRole('button', { name: '+ Add rule' }));
    // Two match objects: none is chosen for the user, and nothing below it can be chosen yet.
    expect(box('Match object')).toHaveProperty('value', '');
    expect(box('Match field')).toHaveProperty('disabled', true);

    await user.selectOptions(box('Match object'), 'Job');
    expect(box('Match field')).toHaveProperty('value', '');
    await user.selectOptions(box('Match field'), 'Job Name');
    // The first operator of Job Name (contains) is the default.
    expect(box('Operator')).toHaveProperty('value', 'contains');
    await user.type(screen.getByRole('textbox', { name: `Value, ${where}` }), 'dns');
    await user.selectOptions(box('Operator'), 'starts_with');
    expect(firstCondition()).toEqual({ match_object: 'job', match_field: 'name', operator: 'starts_with', value: 'dns' });

    await user.selectOptions(box('Match object'), 'Job Action');
    expect(firstCondition()).toEqual({ match_object: 'job_action', match_field: '', operator: '', value: '' });
    expect(box('Match field')).toHaveProperty('value', '');
    expect(box('Operator')).toHaveProperty('disabled', true);
    expect(screen.getByRole('textbox', { name: `Value, ${where}` })).toHaveProperty('disabled', true);

    // A field whose value is a list starts with an empty list, with its first operator.
    await user.selectOptions(box('Match field'), 'Action VID');
    expect(firstCondition()).toEqual({ match_object: 'job_action', match_field: 'vid', operator: 'in', value: [] });
  });

  it('JOB-066 a single match object, a single field and a single option are chosen for the user', async () => {
    const single: FilterContentType = {
      match_object: 'single',
      label: 'Single',
      match_fields: [{ match_field: 'kind', label: 'Kind', operators: ['in', 'not_in'], selector_type: 'dropdown', options: [{ value: 'only', label: 'Only' }] }],
    };
    const user = userEvent.setup();
    // The Action library has one match object: a new condition starts on it.
    renderBuilder('actions');
    await user.click(screen.getByRole('button', { name: '+ Add rule' }));
    expect(firstCondition().match_object).toBe('action');
    expect(within(box('Match object')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Action']);
    document.body.innerHTML = '';

    FILTER_CONFIGS.jobs.push(single);
    try {
      renderBuilder('jobs');
      await user.click(screen.getByRole('button', { name: '+ Add rule' }));
      await user.selectOptions(box('Match object'), 'Single');
      // Its one field is selected, with the first operator, and the dropdown's one option as the value.
      await waitFor(() => expect(firstCondition()).toEqual({ match_object: 'single', match_field: 'kind', operator: 'in', value: 'only' }));
      expect(box('Match field')).toHaveProperty('value', 'kind');
      expect(box('Value')).toHaveProperty('value', 'only');
    } finally {
      FILTER_CONFIGS.jobs.pop();
    }
  });
});

describe('dimension values after a reload', () => {
  it('JOB-083 typeahead chips and the summary show the names of stored dimension ids', async () => {
    server.use(
      http.get(`${API}/reports/dimension_children.json`, ({ request }) =>
        HttpResponse.json(new URL(request.url).searchParams.get('type') === 'Attack Vector' ? [['Phishing', 12], ['Phishing / Spearphishing Link', 13]] : []),
      ),
    );
    const value: SavedFilterBody = {
      rules: [{ operator: 'or', conditions: [{ operator: 'and', conditions: [{ match_object: 'action', match_field: 'attack_vector', operator: 'in', value: ['12', '13'] }] }] }],
      page: {},
    };
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <FilterPanel target="actions" items={[]} value={value} onApply={() => undefined} open={false} onOpenChange={() => undefined} label="Action filters" />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('filter-summary').textContent).toBe('Attack Vector is any of Phishing, Phishing / Spearphishing Link'));
    expect(screen.getByRole('button', { name: `Remove Phishing from Value, ${where}` })).toBeTruthy();
    expect(screen.getByRole('button', { name: `Remove Phishing / Spearphishing Link from Value, ${where}` })).toBeTruthy();
  });
});
