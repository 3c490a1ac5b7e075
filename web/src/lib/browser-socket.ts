/**
 * The part of the browser's WebSocket the console and the live status use, its events cut down to what
 * they read, so Vitest drives them with plain fakes.
 */
export interface BrowserSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/**
 * A browser WebSocket behind BrowserSocket. The DOM's handlers take Event, MessageEvent and CloseEvent,
 * which carry what BrowserSocket's handlers read: each is handed on to the handler set here.
 */
export const openBrowserSocket = (url: string): BrowserSocket => {
  const ws = new WebSocket(url);
  const socket: BrowserSocket = {
    get readyState() {
      return ws.readyState;
    },
    send: (data) => ws.send(data),
    close: (code, reason) => ws.close(code, reason),
    onopen: null,
    onmessage: null,
    onclose: null,
    onerror: null,
  };
  ws.onopen = (event) => socket.onopen?.(event);
  ws.onmessage = (event) => socket.onmessage?.(event);
  ws.onclose = (event) => socket.onclose?.(event);
  ws.onerror = (event) => socket.onerror?.(event);
  return socket;
};
