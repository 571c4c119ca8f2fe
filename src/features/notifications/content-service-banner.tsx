import { differenceInCalendarDays } from 'date-fns';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { http } from '@/api/http';
import type { ContentServiceAnswer } from '@/api/contracts/session';

export const DISMISS_COOKIE = 'content_service_banner_dismissed';
const DAY_SECONDS = 24 * 60 * 60;

export const contentServiceQuery = {
  queryKey: ['settings', 'content_service'] as const,
  queryFn: () => http.get<ContentServiceAnswer>('/settings/content_service.json', { background: true }),
  refetchInterval: 60_000,
};

const readDismissed = () => document.cookie.split('; ').some((c) => c.startsWith(`${DISMISS_COOKIE}=`));
const setDismissCookie = () => (document.cookie = `${DISMISS_COOKIE}=1; max-age=${DAY_SECONDS}; path=/; SameSite=Lax`);
const clearDismissCookie = () => (document.cookie = `${DISMISS_COOKIE}=; max-age=0; path=/; SameSite=Lax`);

export function bannerText(answer: ContentServiceAnswer, now = new Date()): string | null {
  if (answer.content_service_state === 'DISCONNECTED') {
    const days = answer.content_service_last_success ? Math.max(0, differenceInCalendarDays(now, new Date(answer.content_service_last_success))) : 0;
    return `Your system has been unable to connect to the provider's content services for the previous ${days} days. Until a connection is restored, the director is unable to execute any actions.`;
  }
  if (answer.content_service_state === 'RECONNECTING') {
    return "Your system was unable to connect to the provider's content services. A retry will be attempted in one hour.";
  }
  return null;
}

/** Content-service banner: shown when DISCONNECTED or RECONNECTING unless dismissed (24 h cookie). */
export function ContentServiceBanner() {
  const { data } = useQuery(contentServiceQuery);
  const [dismissed, setDismissed] = useState(readDismissed);
  useEffect(() => {
    if (data?.content_service_state === 'CONNECTED') {
      clearDismissCookie();
      setDismissed(false);
    }
  }, [data?.content_service_state]);
  const text = data ? bannerText(data) : null;
  if (!text || dismissed) return null;
  return (
    <div role="alert" className="fixed right-0 bottom-0 left-0 z-[1040] flex items-center gap-3 border-t border-amber-500/60 bg-amber-950/95 px-4 py-2 text-sm text-amber-50">
      <span className="flex-1">
        {text}{' '}
        <a href="/operational_status?tabIndex=3" className="underline">
          Learn more
        </a>
      </span>
      <button
        type="button"
        aria-label="Dismiss content service warning"
        className="rounded px-2 hover:bg-amber-900"
        onClick={() => {
          setDismissCookie();
          setDismissed(true);
        }}
      >
        ×
      </button>
    </div>
  );
}
