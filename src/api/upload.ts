import { ApiError, apiUrl, messageOf, standardHeaders } from './http';

/**
 * POSTs a multipart form with XMLHttpRequest, because fetch cannot report how much of a request body
 * has been sent: `onProgress(sent, total)` follows the upload. Same headers and answers as `http.post`.
 */
export function postWithUploadProgress<T>(path: string, form: FormData, onProgress: (sent: number, total: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    for (const [k, v] of Object.entries(standardHeaders('POST'))) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'The director could not be reached.', null));
    xhr.onload = () => {
      let parsed: unknown = xhr.responseText;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : '';
      } catch {
        // keep the text
      }
      if (xhr.status === 200 || xhr.status === 201) resolve(parsed as T);
      else reject(new ApiError(xhr.status, messageOf(xhr.status, parsed), parsed));
    };
    xhr.send(form);
  });
}
