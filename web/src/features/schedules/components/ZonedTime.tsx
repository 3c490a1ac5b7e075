import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PANEL_TIME_ZONE, viewerTimeZone, zonesDiffer } from '@/features/schedules/cron';
import { formatDateTime } from '@/lib/format';

/** A time in the viewer's zone, named, and in the panel's zone too when the two clocks differ at that moment. */
export const ZonedTime = ({ iso }: { iso: string }) => {
  const { i18n } = useTranslation();
  const viewer = viewerTimeZone();
  return (
    <span>
      <time dateTime={iso}>{formatDateTime(iso, i18n.language, viewer)}</time>
      {zonesDiffer(viewer, PANEL_TIME_ZONE, new Date(iso)) ? (
        <Text span c="dimmed" inherit>
          {' · '}
          {formatDateTime(iso, i18n.language, PANEL_TIME_ZONE)}
        </Text>
      ) : null}
    </span>
  );
};
