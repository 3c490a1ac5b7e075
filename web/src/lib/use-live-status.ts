import { useEffect, useState, useSyncExternalStore } from 'react';
import { LiveStatusClient, liveStatusUrl, type LiveSnapshot } from '@/lib/live-status';

/**
 * The live state of the servers on screen, from one `/api/ws` connection for as long as the page is
 * mounted. While the browser tab is hidden it watches nothing, so the panel stops asking the nodes.
 */
export const useLiveStatus = (uuids: readonly string[]): LiveSnapshot => {
  const [client] = useState(() => new LiveStatusClient({ url: liveStatusUrl(window.location) }));
  const [visible, setVisible] = useState(() => document.visibilityState !== 'hidden');

  useEffect(() => {
    client.start();
    return () => client.stop();
  }, [client]);

  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);

  const key = uuids.join(',');
  useEffect(() => {
    client.subscribe(visible && key ? key.split(',') : []);
  }, [client, key, visible]);

  return useSyncExternalStore(client.subscribeStore, client.getSnapshot);
};
