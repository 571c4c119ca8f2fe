import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { commands } from '../../commands/registry';
import { fetchSavedFilters, filterKeys } from '../../ui/filters/api';
import { applySavedCommand } from './commands';

/** One palette entry per saved filter of the user: 'Apply filter: <name>'. */
export function SavedFilterCommands() {
  const { data } = useQuery({ queryKey: filterKeys.saved, queryFn: fetchSavedFilters, staleTime: 30_000 });
  useEffect(() => {
    if (!data) return;
    return commands.registerAll(data.map(applySavedCommand));
  }, [data]);
  return null;
}
