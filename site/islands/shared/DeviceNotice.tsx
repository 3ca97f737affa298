/**
 * What a member's page says about the device's part (docs/offline.md): offline, that it shows what this
 * device kept and when the queue last reached the server; how many actions wait to be sent; and, once,
 * how many review answers the server did not apply (their cards were answered on another device).
 */
import { useEffect, useState } from 'react';
import { acknowledgeNotApplied, pendingActions, SYNCED, syncState } from '../../lib/offline/queue';
import { offlineSupported } from '../../lib/offline/store';

interface Props {
  /** When the data shown was kept on this device, or null when it came from the server. */
  keptAt?: number | null;
  /** What the page shows from the device, e.g. "These cards were kept on this device". */
  what?: string;
}

const when = (ms: number) =>
  new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function DeviceNotice({ keptAt = null, what }: Props) {
  const [online, setOnline] = useState(true);
  const [synced, setSynced] = useState<number | null>(null);
  const [waiting, setWaiting] = useState(0);
  const [notApplied, setNotApplied] = useState(0);
  const [refused, setRefused] = useState(0);

  useEffect(() => {
    if (!offlineSupported()) return;
    const refresh = () => {
      setOnline(navigator.onLine);
      void syncState()
        .then((state) => {
          setSynced(state?.at ?? null);
          if (state?.notApplied || state?.refused) {
            setNotApplied(state.notApplied);
            setRefused(state.refused ?? 0);
            void acknowledgeNotApplied();
          }
        })
        .catch(() => undefined);
      void pendingActions()
        .then((actions) => setWaiting(actions.length))
        .catch(() => undefined);
    };
    refresh();
    const events = ['online', 'offline', SYNCED];
    for (const event of events) addEventListener(event, refresh);
    return () => {
      for (const event of events) removeEventListener(event, refresh);
    };
  }, [keptAt]);

  const offline = !online || keptAt !== null;
  if (!offline && waiting === 0 && notApplied === 0 && refused === 0) return null;
  return (
    <div className="device-notice" role="status">
      {offline && (
        <p>
          You are offline. {keptAt !== null && what ? `${what} on ${when(keptAt)}. ` : ''}
          {synced ? `Last synced with the server on ${when(synced)}.` : 'Not synced with the server yet.'}
        </p>
      )}
      {waiting > 0 && (
        <p>
          {waiting} {waiting === 1 ? 'action waits' : 'actions wait'} on this device, to be sent when you are
          back online.
        </p>
      )}
      {notApplied > 0 && (
        <p>
          {notApplied} {notApplied === 1 ? 'answer was' : 'answers were'} not applied:{' '}
          {notApplied === 1 ? 'its card was' : 'their cards were'} answered on another device meanwhile.
        </p>
      )}
    </div>
  );
}
