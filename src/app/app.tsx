import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '@/api/http';
import { Toaster } from '@/ui/toaster';
import { ErrorBoundary } from '@/ui/error-boundary';
import { commandHotkeyText, runFrom } from '@/commands/command-hooks';
import { commands } from '@/commands/registry';
import { Shell } from './shell';

const queryClient = new QueryClient({
  // A 4xx answer will not change on retry: show it at once.
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: (n, e) => !(e instanceof ApiError && e.status >= 400 && e.status < 500) && n < 1 } },
});

export function App() {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <Shell />
        <Toaster runCommand={(id) => runFrom(commands, id, undefined, 'button')} hotkeyOf={(id) => commandHotkeyText(commands, id)} />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
