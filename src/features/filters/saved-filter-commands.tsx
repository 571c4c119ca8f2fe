import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { commands } from '@/commands/registry';
import { fetchSavedFilters, filterKeys } from '@/ui/filters/api';
import { applySavedCommand, deleteSavedCommand } from './commands';

/** Two palette entries per saved filter of the user: 'Apply filter: <name>' and 'Delete saved filter: <name>'. */
export function SavedFilterCommands() {
  const { data } = useQuery({ queryKey: filterKeys.saved, queryFn: fetchSavedFilters, staleTime: 30_000 });
  useEffect(() => {
    if (!data) return;
    return commands.registerAll(data.flatMap((f) => [applySavedCommand(f), deleteSavedCommand(f)]));
  }, [data]);
  return null;
}
