import { UploadError, type TransportResult, type UploadTransport } from '@/features/files/upload-queue';

// XHR rather than fetch: only XHR reports upload progress (xhr.upload.onprogress). Same origin, so
// the session cookie goes along and Chromium sends the Origin header the panel checks on writes.

const numberHeader = (xhr: XMLHttpRequest, name: string): number | undefined => {
  const value = Number(xhr.getResponseHeader(name) ?? NaN);
  return Number.isFinite(value) ? value : undefined;
};

const failureOf = (xhr: XMLHttpRequest): UploadError => {
  let body: { code?: unknown; message?: unknown; requestId?: string } = {};
  try {
    body = JSON.parse(xhr.responseText) as typeof body;
  } catch {
    // Not the panel's error shape (a proxy's HTML page): keep the status.
  }
  const retryAfter = numberHeader(xhr, 'retry-after');
  return new UploadError(
    xhr.status,
    typeof body.code === 'string' ? body.code : `HTTP_${xhr.status}`,
    typeof body.message === 'string' ? body.message : xhr.statusText || `HTTP ${xhr.status}`,
    body.requestId ?? xhr.getResponseHeader('x-request-id') ?? undefined,
    retryAfter,
  );
};

/** `POST /api/client/servers/{server}/files/upload?directory=`, one file in the multipart field `files`. */
export const xhrUploadTransport =
  (server: string): UploadTransport =>
  ({ file, name, directory }, onProgress, signal) =>
    new Promise<TransportResult>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      const url = `/api/client/servers/${encodeURIComponent(server)}/files/upload?directory=${encodeURIComponent(directory)}`;
      xhr.open('POST', url);
      xhr.upload.onprogress = (event) => onProgress(event.loaded);
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) {
          resolve({ remaining: numberHeader(xhr, 'x-ratelimit-remaining'), resetAt: numberHeader(xhr, 'x-ratelimit-reset') });
        } else {
          reject(failureOf(xhr));
        }
      };
      xhr.onerror = () => reject(new UploadError(0, 'NETWORK_ERROR', 'network error'));
      xhr.onabort = () => reject(new DOMException('cancelled', 'AbortError'));
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
      const form = new FormData();
      form.append('files', file, name);
      xhr.send(form);
    });
