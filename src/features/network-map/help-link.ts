/** JOB-006, JOB-026: a help link is the URL itself when it starts with http, else the file under /help/. */
export const helpHref = (file: string) => (/^http/i.test(file) ? file : `/help/${encodeURIComponent(file)}`);
