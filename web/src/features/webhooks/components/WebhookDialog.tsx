import { Button, Checkbox, Group, Modal, SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { type Webhook, type WebhookScope, type WebhookWithSecret, useSaveWebhook } from '@/features/webhooks/api';
import { createBody, emptyForm, type EventName, eventGroups, formOf, updateBody, type WebhookForm } from '@/features/webhooks/events';
import { allOnFields, ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify } from '@/lib/notify';

type Underscored<S extends string> = S extends `${infer A}.${infer B}` ? `${A}_${B}` : S;

/** The i18n key of an event's name (`server.crash_loop` → `webhooks.eventNames.server_crash_loop`); typed, so an event without its label fails the typecheck. */
export const eventLabelKey = <E extends EventName | 'webhook.test'>(event: E) => `webhooks.eventNames.${event.replace('.', '_')}` as `webhooks.eventNames.${Underscored<E>}`;

/** The i18n key of what an event means, shown under its name in the form. */
const eventHelpKey = <E extends EventName>(event: E) => `webhooks.eventHelp.${event.replace('.', '_')}` as `webhooks.eventHelp.${Underscored<E>}`;

/** Errors of the panel that are about one field of the form, without VALIDATION_FAILED's details. */
const CODE_FIELDS = new Map([
  ['OUTBOUND_URL_REFUSED', 'url'],
  ['WEBHOOK_EVENT_NOT_ALLOWED', 'events'],
]);

const MONO_INPUT = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** The events to pick: all of them, or some, in the groups alerts and changes. */
const EventPicker = ({ scope, form, onChange, error }: { scope: WebhookScope; form: WebhookForm; onChange: (form: WebhookForm) => void; error?: string }) => {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Checkbox
        label={t('webhooks.allEvents')}
        description={t(scope.kind === 'admin' ? 'webhooks.allEventsHelpAdmin' : 'webhooks.allEventsHelpServer')}
        checked={form.allEvents}
        onChange={(e) => onChange({ ...form, allEvents: e.currentTarget.checked })}
      />
      {form.allEvents ? null : (
        <Checkbox.Group label={t('webhooks.pickEvents')} value={form.events} onChange={(value) => onChange({ ...form, events: value })} error={error}>
          <Stack gap="sm" mt={4}>
            {eventGroups(scope).map(({ group, events }) => (
              <Stack key={group} gap={6} role="group" aria-label={t(`webhooks.groups.${group}`)}>
                <Text size="sm" fw={600}>
                  {t(`webhooks.groups.${group}`)}
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
                  {events.map((event) => (
                    <Checkbox key={event} value={event} label={t(eventLabelKey(event))} description={t(eventHelpKey(event))} />
                  ))}
                </SimpleGrid>
              </Stack>
            ))}
          </Stack>
        </Checkbox.Group>
      )}
    </Stack>
  );
};

/** New (`hook` undefined) or edit. `onSaved` gets the answer, which carries the secret the panel made. */
export const WebhookDialog = ({ scope, hook, onClose, onSaved }: { scope: WebhookScope; hook?: Webhook; onClose: () => void; onSaved?: (saved: WebhookWithSecret) => void }) => {
  const { t } = useTranslation();
  const save = useSaveWebhook(scope);
  const [form, setForm] = useState<WebhookForm>(hook ? formOf(hook) : emptyForm());
  // Set by a submit with no event; the message goes as soon as one is chosen.
  const [askedForEvents, setAskedForEvents] = useState(false);
  const noEvents = askedForEvents && !form.allEvents && form.events.length === 0;
  const fields = save.error instanceof ApiError ? fieldErrors(save.error) : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.allEvents && form.events.length === 0) {
      setAskedForEvents(true);
      return;
    }
    save.mutate(
      { id: hook?.id, body: hook ? updateBody(form, hook) : createBody(form) },
      {
        onSuccess: (saved) => {
          notify({ color: 'green', message: t(hook ? 'webhooks.saved' : 'webhooks.created', { name: saved.name }) });
          onSaved?.(saved);
          onClose();
        },
      },
    );
  };
  // A refused address or event comes with its own code; its message goes on its field too.
  const codeField = save.error instanceof ApiError ? CODE_FIELDS.get(save.error.code) : undefined;
  const shownFields: Record<string, string> = codeField && save.error && !fields[codeField] ? { ...fields, [codeField]: save.error.message } : fields;
  // The error goes above the buttons unless each of its fields is on the form as it is now.
  const visible = new Set(['name', 'url', ...(form.allEvents ? [] : ['events']), ...(form.kind === 'http' ? ['secret'] : [])]);
  const onFields = allOnFields(shownFields, visible);
  return (
    <Modal
      opened
      onClose={save.isPending ? () => undefined : onClose}
      title={hook ? t('webhooks.editTitle', { name: hook.name }) : t('webhooks.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('webhooks.name')} value={form.name} onChange={(e) => setForm({ ...form, name: e.currentTarget.value })} error={shownFields.name} maxLength={64} required data-autofocus />
          {hook ? null : (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="webhook-kind">
                {t('webhooks.kind')}
              </Text>
              <SegmentedControl
                aria-labelledby="webhook-kind"
                value={form.kind}
                onChange={(value) => setForm({ ...form, kind: value })}
                data={[
                  { value: 'http', label: t('webhooks.kinds.http') },
                  { value: 'discord', label: t('webhooks.kinds.discord') },
                ]}
              />
            </Stack>
          )}
          <TextInput
            label={t('webhooks.url')}
            description={hook && form.url === '' && hook.url.includes('…') ? t('webhooks.urlKeep') : t(form.kind === 'discord' ? 'webhooks.urlHelpDiscord' : 'webhooks.urlHelpHttp')}
            placeholder={form.kind === 'discord' ? 'https://discord.com/api/webhooks/…' : 'https://hooks.example.com/hatchery'}
            value={form.url}
            onChange={(e) => setForm({ ...form, url: e.currentTarget.value })}
            error={shownFields.url}
            styles={MONO_INPUT}
            required={!hook}
            type="url"
          />
          <EventPicker scope={scope} form={form} onChange={setForm} error={noEvents ? t('webhooks.pickEventsError') : shownFields.events} />
          {form.kind === 'http' ? (
            <TextInput
              label={hook ? t('webhooks.secretNew') : t('webhooks.secret')}
              description={hook ? t('webhooks.secretNewHelp') : t('webhooks.secretHelp')}
              value={form.secret}
              onChange={(e) => setForm({ ...form, secret: e.currentTarget.value })}
              error={shownFields.secret}
              styles={MONO_INPUT}
              autoComplete="off"
              maxLength={128}
            />
          ) : null}
          <Switch label={t('webhooks.enabled')} description={t('webhooks.enabledHelp')} checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.currentTarget.checked })} />
          {save.error && !onFields ? <FormError error={save.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {hook ? t('webhooks.save') : t('webhooks.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};
