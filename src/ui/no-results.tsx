/** The generic tables' no-results panel (MON-019): the spec's text when a search or filter matches nothing. */
export const NO_RESULTS_TEXT = 'No results found for the selected options.';

export function NoResults() {
  return (
    <div role="status" className="p-4 text-sm text-muted">
      {NO_RESULTS_TEXT}
    </div>
  );
}
