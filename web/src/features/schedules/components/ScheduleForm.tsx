import { Button, Checkbox, Code, Fieldset, Group, List, Modal, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { type Schedule, useCreateSchedule, useUpdateSchedule } from '@/features/schedules/api';
import {
  checkCron,
  CRON_FIELD_RANGES,
  CRON_FIELDS,
  type CronFields,
  type CronPresetKind,
  cronString,
  describeCron,
  formatTime,
  isCronValid,
  PANEL_TIME_ZONE,
  parseCronString,
  parseTime,
  presetFields,
  presetOf,
} from '@/features/schedules/cron';
import { ZonedTime } from '@/features/schedules/components/ZonedTime';
import { notify } from '@/lib/notify';

const PRESET_KINDS: CronPresetKind[] = ['hourly', 'daily', 'weekly', 'custom'];
const DAYS = ['1', '2', '3', '4', '5', '6', '0'] as const;

interface PresetState {
  minute: number;
  time: string;
  day: string;
}

/** The expression's meaning: words (times in the panel's zone) and the next five runs in the viewer's zone, or why there are none. */
const CronPreview = ({ fields }: { fields: CronFields }) => {
  const { t } = useTranslation();
  const check = checkCron(fields, new Date());
  const words = isCronValid(check) ? describeCron(fields) : null;
  return (
    <Stack gap={6} aria-live="polite" data-testid="cron-preview">
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {t('schedules.expression')}
        </Text>
        <Code>{cronString(fields)}</Code>
      </Group>
      {isCronValid(check) ? (
        <>
          <Text size="sm" data-testid="cron-words">
            {words ? t('schedules.inWords', { words, zone: PANEL_TIME_ZONE }) : t('schedules.wordsUnknown')}
          </Text>
          <Text size="sm" fw={600}>
            {t('schedules.nextRuns')}
          </Text>
          <List size="sm" spacing={2} data-testid="next-runs">
            {check.next.map((d) => (
              <List.Item key={d.toISOString()}>
                <ZonedTime iso={d.toISOString()} />
              </List.Item>
            ))}
          </List>
        </>
      ) : (
        <Text size="sm" c="red.8" role="alert">
          {check.never ? t('schedules.never') : t('schedules.invalidNoRuns')}
        </Text>
      )}
    </Stack>
  );
};

/** Create or edit: a preset (hourly, daily at, weekly on at) or the five fields, checked as they are typed. */
export const ScheduleForm = ({ serverId, schedule, onClose, onCreated }: { serverId: string; schedule?: Schedule; onClose: () => void; onCreated?: (created: Schedule) => void }) => {
  const { t } = useTranslation();
  const create = useCreateSchedule(serverId);
  const update = useUpdateSchedule(serverId);
  const mutation = schedule ? update : create;
  const initialFields = schedule ? parseCronString(schedule.cron) : presetFields({ kind: 'daily', hour: 4, minute: 0 });
  const initialPreset = presetOf(initialFields);
  const [name, setName] = useState(schedule?.name ?? '');
  const [kind, setKind] = useState<CronPresetKind>(initialPreset.kind);
  const [preset, setPreset] = useState<PresetState>({
    minute: initialPreset.kind === 'custom' ? 0 : initialPreset.minute,
    time: initialPreset.kind === 'daily' || initialPreset.kind === 'weekly' ? formatTime(initialPreset.hour, initialPreset.minute) : '04:00',
    day: initialPreset.kind === 'weekly' ? String(initialPreset.day) : '1',
  });
  const [custom, setCustom] = useState<CronFields>(initialFields);
  const [onlyWhenOnline, setOnlyWhenOnline] = useState(schedule?.only_when_online ?? false);
  const [active, setActive] = useState(true);

  const time = parseTime(preset.time);
  const minuteOk = Number.isInteger(preset.minute) && preset.minute >= 0 && preset.minute <= 59;
  const presetValid = kind === 'hourly' ? minuteOk : kind === 'custom' || time !== null;
  const fields: CronFields =
    kind === 'custom' || !presetValid
      ? custom
      : kind === 'hourly'
        ? presetFields({ kind, minute: preset.minute })
        : kind === 'daily'
          ? presetFields({ kind, hour: time!.hour, minute: time!.minute })
          : presetFields({ kind, day: Number(preset.day), hour: time!.hour, minute: time!.minute });
  const check = checkCron(fields, new Date());
  const valid = name.trim().length > 0 && presetValid && isCronValid(check);

  const choose = (next: CronPresetKind) => {
    // Switching to the fields starts them from what the preset said.
    if (next === 'custom' && kind !== 'custom') {
      setCustom(fields);
    }
    setKind(next);
  };

  return (
    <Modal opened onClose={onClose} title={schedule ? t('schedules.editTitle') : t('schedules.createTitle')} closeButtonProps={{ 'aria-label': t('common.close') }} size="lg">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!valid) {
            return;
          }
          const body = { name: name.trim(), cron: Object.fromEntries(CRON_FIELDS.map((f) => [f, fields[f].trim()])) as CronFields, only_when_online: onlyWhenOnline };
          if (schedule) {
            update.mutate(
              { id: schedule.id, ...body },
              {
                onSuccess: () => {
                  notify({ color: 'green', message: t('schedules.saved') });
                  onClose();
                },
              },
            );
          } else {
            create.mutate(
              { ...body, is_active: active },
              {
                onSuccess: (created) => {
                  notify({ color: 'green', message: t('schedules.created') });
                  onClose();
                  onCreated?.(created);
                },
              },
            );
          }
        }}
      >
        <Stack>
          <TextInput label={t('schedules.name')} required maxLength={191} value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
          <Select
            label={t('schedules.repeat')}
            data={PRESET_KINDS.map((k) => ({ value: k, label: t(`schedules.presets.${k}`) }))}
            value={kind}
            onChange={(v) => v && choose(v)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          {kind === 'hourly' ? (
            <NumberInput
              label={t('schedules.atMinute')}
              min={0}
              max={59}
              clampBehavior="none"
              allowDecimal={false}
              allowNegative={false}
              value={preset.minute}
              onChange={(v) => setPreset({ ...preset, minute: typeof v === 'number' ? v : Number.NaN })}
              error={minuteOk ? undefined : t('schedules.problems.form', CRON_FIELD_RANGES.minute)}
            />
          ) : null}
          {kind === 'weekly' ? (
            <Select
              label={t('schedules.onDay')}
              data={DAYS.map((d) => ({ value: d, label: t(`schedules.days.${d}`) }))}
              value={preset.day}
              onChange={(v) => v && setPreset({ ...preset, day: v })}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
          {kind === 'daily' || kind === 'weekly' ? (
            <TextInput
              type="time"
              label={t('schedules.atTime', { zone: PANEL_TIME_ZONE })}
              value={preset.time}
              onChange={(e) => setPreset({ ...preset, time: e.currentTarget.value })}
              error={time ? undefined : t('schedules.problems.required')}
            />
          ) : null}
          {kind === 'custom' ? (
            <Fieldset legend={t('schedules.fieldsLegend')} variant="unstyled">
              <Text size="xs" c="dimmed" mb="xs">
                {t('schedules.fieldsHelp')}
              </Text>
              <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
                {CRON_FIELDS.map((f) => {
                  const problem = check.fields[f];
                  return (
                    <TextInput
                      key={f}
                      label={t(`schedules.fields.${f}`)}
                      description={t(`schedules.fieldHelp.${f}`)}
                      value={custom[f]}
                      onChange={(e) => setCustom({ ...custom, [f]: e.currentTarget.value })}
                      error={problem ? t(`schedules.problems.${problem}`, CRON_FIELD_RANGES[f]) : undefined}
                      autoComplete="off"
                      spellCheck={false}
                      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                    />
                  );
                })}
              </SimpleGrid>
            </Fieldset>
          ) : null}
          <Text size="xs" c="dimmed">
            {t('schedules.zoneNote', { zone: PANEL_TIME_ZONE })}
          </Text>
          {presetValid ? <CronPreview fields={fields} /> : null}
          <Checkbox
            label={t('schedules.onlyWhenOnline')}
            description={t('schedules.onlyWhenOnlineHelp')}
            checked={onlyWhenOnline}
            onChange={(e) => setOnlyWhenOnline(e.currentTarget.checked)}
          />
          {schedule ? null : (
            <Checkbox label={t('schedules.activeOnCreate')} description={t('schedules.activeHelp')} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
          )}
          {mutation.error ? <FormError error={mutation.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!valid} loading={mutation.isPending}>
              {schedule ? t('schedules.save') : t('schedules.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};
