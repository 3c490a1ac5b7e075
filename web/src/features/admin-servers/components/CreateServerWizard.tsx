import { Alert, Anchor, Button, Checkbox, Group, Loader, MultiSelect, NumberInput, Radio, Select, SimpleGrid, Stack, Stepper, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { PageSkeleton } from '@/components/Skeletons';
import { allocationsQuery, eggQuery, eggsQuery, nestsQuery, nodesQuery, nodeUsageQuery, useCreateServer, usersQuery, type AdminNode, type Egg, type NodeUsage } from '@/features/admin-servers/api';
import { fits, nodeCapacity, type NodeCapacity } from '@/features/admin-servers/capacity';
import { allocationLabel, OwnerSelect, VariableField, variableProblem } from '@/features/admin-servers/components/fields';
import { CUSTOM_IMAGE, emptyForm, intProblem, LIMIT_BOUNDS, placeError, reviewWarnings, STEPS, type Step, stepOfField, THREADS, toCreateBody, withEgg, type WizardForm } from '@/features/admin-servers/wizard';
import { ApiError, detailsRecord } from '@/lib/api/api-error';
import { describeError } from '@/lib/errors';
import { formatBytes } from '@/lib/format';
import { onlyChoice } from '@/lib/only-choice';

type Errors = Record<string, string>;
type Patch = (patch: Partial<WizardForm>) => void;

const MIB = 1024 * 1024;

/** `used of limit (free left)` in the reader's units; "not checked" when the overallocation is -1. */
const useRoomText = () => {
  const { t, i18n } = useTranslation();
  return (room: NodeCapacity['memory']) =>
    room.limit === null
      ? t('adminServers.node.unchecked', { used: formatBytes(room.used * MIB, i18n.language) })
      : t('adminServers.node.room', { used: formatBytes(room.used * MIB, i18n.language), limit: formatBytes(room.limit * MIB, i18n.language), free: formatBytes(Math.max(0, room.free ?? 0) * MIB, i18n.language) });
};

const DetailsStep = ({ form, patch, errors }: { form: WizardForm; patch: Patch; errors: Errors }) => {
  const { t } = useTranslation();
  return (
    <Stack>
      <TextInput label={t('adminServers.fields.name')} required maxLength={191} value={form.name} onChange={(e) => patch({ name: e.currentTarget.value })} error={errors.name} data-autofocus />
      <Textarea label={t('adminServers.fields.description')} autosize minRows={2} value={form.description} onChange={(e) => patch({ description: e.currentTarget.value })} error={errors.description} />
      <OwnerSelect value={form.ownerId} onChange={(ownerId) => patch({ ownerId })} error={errors.owner_id} />
    </Stack>
  );
};

const NodeStep = ({ form, patch, errors, nodes, usage }: { form: WizardForm; patch: Patch; errors: Errors; nodes: AdminNode[]; usage: NodeUsage[] }) => {
  const { t } = useTranslation();
  const roomText = useRoomText();
  const allocations = useQuery(allocationsQuery(form.nodeId));
  const free = useMemo(() => (allocations.data ?? []).filter((a) => !a.assigned), [allocations.data]);
  const options = free.map((a) => ({ value: a.id, label: allocationLabel(a) }));

  // The only node there is, when it has room, is the choice.
  const onlyNode = onlyChoice(nodes);
  const onlyNodeOpen = onlyNode !== undefined && nodeCapacity(onlyNode, usage.find((u) => u.nodeId === onlyNode.id)).blocked === null;
  useEffect(() => {
    if (!form.nodeId && onlyNode && onlyNodeOpen) {
      patch({ nodeId: onlyNode.id });
    }
  }, [form.nodeId, onlyNode, onlyNodeOpen, patch]);

  // A node's first free allocation is the likely primary.
  useEffect(() => {
    if (form.nodeId && !form.allocationId && free.length > 0) {
      patch({ allocationId: free[0].id });
    }
  }, [form.nodeId, form.allocationId, free, patch]);

  if (nodes.length === 0) {
    return (
      <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />}>
        {t('adminServers.node.none')}
      </Alert>
    );
  }
  return (
    <Stack>
      <Radio.Group
        label={t('adminServers.fields.node')}
        description={t('adminServers.node.help')}
        required
        value={form.nodeId || null}
        onChange={(nodeId) => patch({ nodeId, allocationId: '', extraAllocationIds: [] })}
        error={errors.node_id}
      >
        <Stack gap="sm" mt="xs">
          {nodes.map((node) => {
            const c = nodeCapacity(node, usage.find((u) => u.nodeId === node.id));
            return (
              <Radio
                key={node.id}
                value={node.id}
                disabled={c.blocked !== null}
                label={
                  <Text span fw={600}>
                    {node.name} <Text span c="dimmed" size="sm">({node.fqdn})</Text>
                  </Text>
                }
                description={
                  <Stack gap={0} component="span">
                    <span>{t('adminServers.node.memory', { room: roomText(c.memory) })}</span>
                    <span>{t('adminServers.node.disk', { room: roomText(c.disk) })}</span>
                    <span>{t('adminServers.node.servers', { count: c.servers })}</span>
                    {c.blocked ? (
                      <Text span size="sm" fw={600} c="var(--mantine-color-error)">
                        {t(`adminServers.node.blocked.${c.blocked}`)}
                      </Text>
                    ) : null}
                  </Stack>
                }
              />
            );
          })}
        </Stack>
      </Radio.Group>
      {form.nodeId ? (
        allocations.isError ? (
          <ErrorState error={allocations.error} onRetry={() => void allocations.refetch()} />
        ) : allocations.isPending ? (
          <Loader size="sm" aria-label={t('common.loading')} />
        ) : free.length === 0 ? (
          <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
            {t('adminServers.node.noFreeAllocation')}
          </Alert>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('adminServers.fields.allocation')}
              description={t('adminServers.fields.allocationHelp', { count: free.length })}
              required
              searchable
              data={options}
              value={form.allocationId || null}
              onChange={(v) => patch({ allocationId: v ?? '', extraAllocationIds: form.extraAllocationIds.filter((x) => x !== v) })}
              error={errors.allocation_id}
            />
            <MultiSelect
              label={t('adminServers.fields.extraAllocations')}
              description={t('adminServers.fields.extraAllocationsHelp')}
              searchable
              data={options.filter((o) => o.value !== form.allocationId)}
              value={form.extraAllocationIds}
              onChange={(extraAllocationIds) => patch({ extraAllocationIds })}
              error={errors.additional_allocation_ids}
              hidePickedOptions
            />
          </SimpleGrid>
        )
      ) : null}
    </Stack>
  );
};

const EggStep = ({ form, patch, errors, egg }: { form: WizardForm; patch: Patch; errors: Errors; egg: Egg | undefined }) => {
  const { t, i18n } = useTranslation();
  const nests = useQuery(nestsQuery);
  const eggs = useQuery(eggsQuery(form.nestId));
  // The only nest, then the only egg in it, is the choice.
  const onlyNest = onlyChoice(nests.data);
  const onlyEgg = form.nestId ? onlyChoice(eggs.data) : undefined;
  useEffect(() => {
    if (!form.nestId && onlyNest) {
      patch({ nestId: onlyNest.id, eggId: '' });
    } else if (form.nestId && !form.eggId && onlyEgg) {
      patch({ eggId: onlyEgg.id });
    }
  }, [form.nestId, form.eggId, onlyNest, onlyEgg, patch]);
  if (nests.isError) {
    return <ErrorState error={nests.error} onRetry={() => void nests.refetch()} />;
  }
  const images = [...(egg?.dockerImages ?? []).map((d) => ({ value: d.image, label: `${d.name} (${d.image})` })), { value: CUSTOM_IMAGE, label: t('adminServers.fields.customImage') }];
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('adminServers.fields.nest')}
          required
          searchable
          placeholder={nests.isPending ? t('common.loading') : undefined}
          data={(nests.data ?? []).map((n) => ({ value: n.id, label: n.name }))}
          value={form.nestId || null}
          onChange={(v) => patch({ nestId: v ?? '', eggId: '' })}
          nothingFoundMessage={t('adminServers.fields.noNest')}
        />
        <Select
          label={t('adminServers.fields.egg')}
          required
          searchable
          disabled={!form.nestId}
          placeholder={form.nestId && eggs.isPending ? t('common.loading') : undefined}
          data={(eggs.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
          value={form.eggId || null}
          onChange={(v) => patch({ eggId: v ?? '' })}
          error={errors.egg_id ?? (eggs.isError ? describeError(eggs.error, t, i18n.language).message : undefined)}
          nothingFoundMessage={t('adminServers.fields.noEgg')}
        />
      </SimpleGrid>
      {form.eggId && !egg ? <Loader size="sm" aria-label={t('common.loading')} /> : null}
      {egg ? (
        <>
          <Select label={t('adminServers.fields.image')} required data={images} value={form.image || null} onChange={(v) => patch({ image: v ?? '' })} error={form.image === CUSTOM_IMAGE ? undefined : errors.docker_image} />
          {form.image === CUSTOM_IMAGE ? (
            <TextInput label={t('adminServers.fields.customImageName')} required placeholder="ghcr.io/owner/image:tag" value={form.customImage} onChange={(e) => patch({ customImage: e.currentTarget.value })} error={errors.docker_image} />
          ) : null}
          <Textarea
            label={t('adminServers.fields.startup')}
            description={t('adminServers.fields.startupHelp')}
            required
            autosize
            minRows={2}
            value={form.startup}
            onChange={(e) => patch({ startup: e.currentTarget.value })}
            error={errors.startup}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            rightSection={
              form.startup !== egg.startup ? (
                <Button variant="subtle" size="compact-xs" onClick={() => patch({ startup: egg.startup })}>
                  {t('adminServers.fields.resetStartup')}
                </Button>
              ) : null
            }
            rightSectionWidth={form.startup !== egg.startup ? 90 : undefined}
          />
          <Checkbox label={t('adminServers.fields.skipScripts')} description={t('adminServers.fields.skipScriptsHelp')} checked={form.skipScripts} onChange={(e) => patch({ skipScripts: e.currentTarget.checked })} />
        </>
      ) : null}
    </Stack>
  );
};

const VariablesStep = ({ form, patch, errors, egg }: { form: WizardForm; patch: Patch; errors: Errors; egg: Egg }) => {
  const { t } = useTranslation();
  if (egg.variables.length === 0) {
    return <Text c="dimmed">{t('adminServers.variables.none')}</Text>;
  }
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('adminServers.variables.help')}
      </Text>
      {egg.variables.map((v) => (
        <VariableField
          key={v.envVariable}
          variable={v}
          showAccess
          value={form.environment[v.envVariable] ?? ''}
          onChange={(value) => patch({ environment: { ...form.environment, [v.envVariable]: value } })}
          error={errors[`environment.${v.envVariable}`]}
        />
      ))}
    </Stack>
  );
};

const LimitInput = ({ field, label, help, value, onChange, errors, suffix }: { field: keyof typeof LIMIT_BOUNDS; label: string; help?: string; value: number | string; onChange: (v: number | string) => void; errors: Errors; suffix?: string }) => (
  <NumberInput
    label={label}
    description={help}
    required
    allowDecimal={false}
    min={LIMIT_BOUNDS[field][0]}
    max={LIMIT_BOUNDS[field][1]}
    clampBehavior="none"
    value={value}
    onChange={onChange}
    error={errors[field]}
    rightSection={suffix ? <Text size="xs" c="dimmed" pr="xs">{suffix}</Text> : undefined}
    rightSectionWidth={suffix ? 48 : undefined}
  />
);

const LimitsStep = ({ form, patch, errors, capacity }: { form: WizardForm; patch: Patch; errors: Errors; capacity: NodeCapacity | undefined }) => {
  const { t } = useTranslation();
  const roomText = useRoomText();
  return (
    <Stack>
      {capacity ? (
        <Text size="sm" c="dimmed">
          {t('adminServers.limits.nodeRoom', { memory: roomText(capacity.memory), disk: roomText(capacity.disk) })}
        </Text>
      ) : null}
      <Title order={4} size="h5">
        {t('adminServers.limits.resources')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        <LimitInput field="memory" label={t('adminServers.fields.memory')} help={t('adminServers.fields.zeroUnlimited')} suffix="MiB" value={form.memory} onChange={(memory) => patch({ memory })} errors={errors} />
        <LimitInput field="swap" label={t('adminServers.fields.swap')} help={t('adminServers.fields.swapHelp')} suffix="MiB" value={form.swap} onChange={(swap) => patch({ swap })} errors={errors} />
        <LimitInput field="disk" label={t('adminServers.fields.disk')} help={t('adminServers.fields.zeroUnlimited')} suffix="MiB" value={form.disk} onChange={(disk) => patch({ disk })} errors={errors} />
        <LimitInput field="cpu" label={t('adminServers.fields.cpu')} help={t('adminServers.fields.cpuHelp')} suffix="%" value={form.cpu} onChange={(cpu) => patch({ cpu })} errors={errors} />
        <LimitInput field="io" label={t('adminServers.fields.io')} help={t('adminServers.fields.ioHelp')} value={form.io} onChange={(io) => patch({ io })} errors={errors} />
        <TextInput label={t('adminServers.fields.threads')} description={t('adminServers.fields.threadsHelp')} placeholder="0-1,3" value={form.threads} onChange={(e) => patch({ threads: e.currentTarget.value })} error={errors.threads} />
      </SimpleGrid>
      <Checkbox label={t('adminServers.fields.oomKiller')} description={t('adminServers.fields.oomKillerHelp')} checked={form.oomKiller} onChange={(e) => patch({ oomKiller: e.currentTarget.checked })} />
      <Title order={4} size="h5">
        {t('adminServers.limits.features')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <LimitInput field="database_limit" label={t('adminServers.fields.databases')} help={t('adminServers.fields.databasesHelp')} value={form.databaseLimit} onChange={(databaseLimit) => patch({ databaseLimit })} errors={errors} />
        <LimitInput field="allocation_limit" label={t('adminServers.fields.allocations')} value={form.allocationLimit} onChange={(allocationLimit) => patch({ allocationLimit })} errors={errors} />
        <LimitInput field="backup_limit" label={t('adminServers.fields.backups')} value={form.backupLimit} onChange={(backupLimit) => patch({ backupLimit })} errors={errors} />
      </SimpleGrid>
      <Checkbox label={t('adminServers.fields.startOnCompletion')} description={t('adminServers.fields.startOnCompletionHelp')} checked={form.startOnCompletion} onChange={(e) => patch({ startOnCompletion: e.currentTarget.checked })} />
    </Stack>
  );
};

const ReviewRow = ({ label, children }: { label: string; children: ReactNode }) => (
  <Stack gap={0}>
    <Text component="dt" size="xs" c="dimmed">
      {label}
    </Text>
    <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Text>
  </Stack>
);

/** `/admin/servers/new`: owner → node and allocations → egg, image, startup → variables → limits → review → create. */
export const CreateServerWizard = ({ onCreated }: { onCreated: (id: string) => void }) => {
  const { t, i18n } = useTranslation();
  const narrow = useMediaQuery('(max-width: 48em)');
  const [form, setForm] = useState<WizardForm>(emptyForm);
  const [active, setActive] = useState(0);
  const [errors, setErrors] = useState<Errors>({});
  const nodes = useQuery(nodesQuery);
  const usage = useQuery(nodeUsageQuery);
  const egg = useQuery(eggQuery(form.eggId));
  const users = useQuery(usersQuery);
  const allocations = useQuery(allocationsQuery(form.nodeId));
  const create = useCreateServer();
  const addressOf = (id: string): string => {
    const a = allocations.data?.find((x) => x.id === id);
    return a ? allocationLabel(a) : id;
  };

  const patch = useMemo<Patch>(() => (p) => setForm((f) => ({ ...f, ...p })), []);

  // A newly chosen egg fills in its image, startup command and variable defaults once.
  const [appliedEgg, setAppliedEgg] = useState('');
  useEffect(() => {
    if (egg.data && egg.data.id === form.eggId && appliedEgg !== egg.data.id) {
      setAppliedEgg(egg.data.id);
      setForm((f) => withEgg(f, egg.data));
    }
  }, [egg.data, form.eggId, appliedEgg]);

  const node = nodes.data?.find((n) => n.id === form.nodeId);
  const capacity = node ? nodeCapacity(node, usage.data?.find((u) => u.nodeId === node.id)) : undefined;

  if (nodes.isError || usage.isError) {
    return <ErrorState error={nodes.error ?? usage.error} onRetry={() => void Promise.all([nodes.refetch(), usage.refetch()])} />;
  }
  if (!nodes.data || !usage.data) {
    return <PageSkeleton />;
  }

  /** What is wrong on a step before going on (the panel checks again on create). */
  const check = (step: Step): Errors => {
    const e: Errors = {};
    const need = (ok: boolean, field: string, key: 'required' | 'chooseOwner' | 'chooseNode' | 'nodeBlocked' | 'chooseAllocation' | 'chooseEgg' | 'threads' = 'required') => {
      if (!ok && !(field in e)) {
        e[field] = t(`adminServers.errors.${key}`);
      }
    };
    switch (step) {
      case 'details':
        need(form.name.trim() !== '', 'name');
        need(form.ownerId !== '', 'owner_id', 'chooseOwner');
        break;
      case 'node':
        need(form.nodeId !== '', 'node_id', 'chooseNode');
        need((capacity?.blocked ?? null) === null, 'node_id', 'nodeBlocked');
        need(form.allocationId !== '', 'allocation_id', 'chooseAllocation');
        break;
      case 'egg':
        need(form.eggId !== '' && egg.data !== undefined, 'egg_id', 'chooseEgg');
        need(form.image !== '' && (form.image !== CUSTOM_IMAGE || form.customImage.trim() !== ''), 'docker_image');
        need(form.startup.trim() !== '', 'startup');
        break;
      case 'variables':
        for (const v of egg.data?.variables ?? []) {
          const problem = variableProblem(v, form.environment[v.envVariable] ?? '');
          if (problem) {
            e[`environment.${v.envVariable}`] = problem;
          }
        }
        break;
      case 'limits':
        for (const field of Object.keys(LIMIT_BOUNDS) as (keyof typeof LIMIT_BOUNDS)[]) {
          const key = { memory: 'memory', swap: 'swap', disk: 'disk', cpu: 'cpu', io: 'io', database_limit: 'databaseLimit', allocation_limit: 'allocationLimit', backup_limit: 'backupLimit' } as const;
          const problem = intProblem(form[key[field]], LIMIT_BOUNDS[field][0], LIMIT_BOUNDS[field][1]);
          if (problem) {
            e[field] = t(`adminServers.errors.${problem}`, { min: LIMIT_BOUNDS[field][0], max: LIMIT_BOUNDS[field][1] });
          }
        }
        need(form.threads.trim() === '' || THREADS.test(form.threads.trim()), 'threads', 'threads');
        if (!e.memory && capacity && !fits(Number(form.memory), capacity.memory.free)) {
          e.memory = t('adminServers.errors.overNode', { free: formatBytes(Math.max(0, capacity.memory.free ?? 0) * MIB, i18n.language) });
        }
        if (!e.disk && capacity && !fits(Number(form.disk), capacity.disk.free)) {
          e.disk = t('adminServers.errors.overNode', { free: formatBytes(Math.max(0, capacity.disk.free ?? 0) * MIB, i18n.language) });
        }
        break;
      case 'review':
        break;
    }
    return e;
  };

  const goTo = (target: number) => {
    // Forward only past steps that pass; back always.
    for (let i = active; i < target; i++) {
      const found = check(STEPS[i]);
      if (Object.keys(found).length > 0) {
        setErrors(found);
        setActive(i);
        return;
      }
    }
    setErrors({});
    setActive(target);
  };

  const submit = () => {
    for (let i = 0; i < STEPS.length - 1; i++) {
      const found = check(STEPS[i]);
      if (Object.keys(found).length > 0) {
        setErrors(found);
        setActive(i);
        return;
      }
    }
    create.mutate(toCreateBody(form), {
      onSuccess: (server) => onCreated(server.id),
      onError: (error) => {
        const placed = placeError(error, (e) => describeError(e, t, i18n.language).message);
        setErrors(placed.fields);
        setActive(STEPS.indexOf(placed.step));
      },
    });
  };

  const left = create.error instanceof ApiError ? detailsRecord(create.error).serverId : undefined;
  const stepError = (step: Step) => Object.keys(errors).some((f) => stepOfField(f) === step);
  const imageText = form.image === CUSTOM_IMAGE ? form.customImage : form.image;
  const warnings = reviewWarnings(form);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h3">
          {t('adminServers.wizard.title')}
        </Title>
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/admin/servers" />}>
          {t('adminServers.wizard.back')}
        </Anchor>
      </Group>
      <Stepper active={active} onStepClick={goTo} orientation={narrow ? 'vertical' : 'horizontal'} size="sm" allowNextStepsSelect={false} wrap={false}>
        {STEPS.map((step) => (
          <Stepper.Step key={step} label={t(`adminServers.wizard.steps.${step}`)} color={stepError(step) ? 'red' : undefined} />
        ))}
      </Stepper>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (STEPS[active] === 'review') {
            submit();
          } else {
            goTo(active + 1);
          }
        }}
      >
        <Stack gap="md">
          <Title order={3} size="h4">
            {t(`adminServers.wizard.steps.${STEPS[active]}`)}
          </Title>
          {STEPS[active] === 'details' ? <DetailsStep form={form} patch={patch} errors={errors} /> : null}
          {STEPS[active] === 'node' ? <NodeStep form={form} patch={patch} errors={errors} nodes={nodes.data} usage={usage.data} /> : null}
          {STEPS[active] === 'egg' ? <EggStep form={form} patch={patch} errors={errors} egg={egg.data?.id === form.eggId ? egg.data : undefined} /> : null}
          {STEPS[active] === 'variables' && egg.data ? <VariablesStep form={form} patch={patch} errors={errors} egg={egg.data} /> : null}
          {STEPS[active] === 'limits' ? <LimitsStep form={form} patch={patch} errors={errors} capacity={capacity} /> : null}
          {STEPS[active] === 'review' ? (
            <Stack>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" component="dl" m={0}>
                <ReviewRow label={t('adminServers.fields.name')}>{form.name}</ReviewRow>
                <ReviewRow label={t('adminServers.fields.owner')}>{users.data?.find((u) => u.id === form.ownerId)?.username ?? '–'}</ReviewRow>
                <ReviewRow label={t('adminServers.fields.node')}>{node?.name ?? '–'}</ReviewRow>
                <ReviewRow label={t('adminServers.fields.egg')}>{egg.data?.name ?? '–'}</ReviewRow>
                <ReviewRow label={t('adminServers.fields.image')}>{imageText}</ReviewRow>
                <ReviewRow label={t('adminServers.review.resources')}>
                  {t('adminServers.review.resourcesText', {
                    memory: Number(form.memory) === 0 ? t('adminServers.review.unlimited') : formatBytes(Number(form.memory) * MIB, i18n.language),
                    disk: Number(form.disk) === 0 ? t('adminServers.review.unlimited') : formatBytes(Number(form.disk) * MIB, i18n.language),
                    cpu: Number(form.cpu) === 0 ? t('adminServers.review.unlimited') : `${form.cpu}%`,
                  })}
                </ReviewRow>
                <ReviewRow label={t('adminServers.review.features')}>
                  {t('adminServers.review.featuresText', {
                    // The database limit's 0 is unlimited and -1 none.
                    databases: { 0: t('adminServers.review.unlimited'), [-1]: t('adminServers.review.none') }[Number(form.databaseLimit)] ?? form.databaseLimit,
                    allocations: form.allocationLimit,
                    backups: form.backupLimit,
                  })}
                </ReviewRow>
                <ReviewRow label={t('adminServers.review.addresses')}>
                  {[form.allocationId, ...form.extraAllocationIds].map((a) => addressOf(a)).join(', ')}
                </ReviewRow>
                <ReviewRow label={t('adminServers.fields.startOnCompletion')}>{form.startOnCompletion ? t('adminServers.review.yes') : t('adminServers.review.no')}</ReviewRow>
              </SimpleGrid>
              {warnings.length > 0 ? (
                <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />} title={t('adminServers.review.warningsTitle')} role="note" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
                  <Stack gap={4}>
                    {warnings.map((w) => (
                      <Text key={w.key} size="sm">
                        {t(`adminServers.review.warnings.${w.key}`, { limit: w.limit })}
                      </Text>
                    ))}
                    {/* Not dimmed: grey on the alert's dark yellow falls short of 4.5:1. */}
                    <Text size="sm">
                      {t('adminServers.review.warningsHelp')}
                    </Text>
                  </Stack>
                </Alert>
              ) : null}
              <Text size="sm" c="dimmed">
                {t('adminServers.review.help')}
              </Text>
              {create.error ? <FormError error={create.error} /> : null}
              {typeof left === 'string' ? (
                <Text size="sm">
                  {t('adminServers.review.leftBehind')}{' '}
                  <Anchor underline="always" renderRoot={(props) => <Link {...props} to="/admin/servers/$sid" params={{ sid: left }} />}>{t('adminServers.review.openLeft')}</Anchor>
                </Text>
              ) : null}
            </Stack>
          ) : null}
          {Object.keys(errors).length > 0 && STEPS[active] !== 'review' ? (
            <Text size="sm" c="var(--mantine-color-error)" role="alert">
              {t('adminServers.wizard.fix')}
            </Text>
          ) : null}
          <Group justify="space-between">
            <Button variant="default" onClick={() => goTo(active - 1)} disabled={active === 0 || create.isPending}>
              {t('adminServers.wizard.previous')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {STEPS[active] === 'review' ? t('adminServers.wizard.create') : t('adminServers.wizard.next')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
};
