import { Anchor, Button, Group, Stack, Stepper, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { PageSkeleton } from '@/components/Skeletons';
import { allocationsQuery, eggQuery, nodesQuery, nodeUsageQuery, useCreateServer, usersQuery } from '@/features/admin-servers/api';
import { fits, nodeCapacity } from '@/features/admin-servers/capacity';
import { allocationLabel, variableProblem } from '@/features/admin-servers/components/fields';
import { DetailsStep } from '@/features/admin-servers/components/wizard/DetailsStep';
import { EggStep } from '@/features/admin-servers/components/wizard/EggStep';
import { LimitsStep } from '@/features/admin-servers/components/wizard/LimitsStep';
import { NodeStep } from '@/features/admin-servers/components/wizard/NodeStep';
import { ReviewStep } from '@/features/admin-servers/components/wizard/ReviewStep';
import { type Errors, MIB, type Patch } from '@/features/admin-servers/components/wizard/step-props';
import { VariablesStep } from '@/features/admin-servers/components/wizard/VariablesStep';
import { CUSTOM_IMAGE, emptyForm, intProblem, LIMIT_BOUNDS, placeError, STEPS, type Step, stepOfField, THREADS, toCreateBody, withEgg, type WizardForm } from '@/features/admin-servers/wizard';
import { describeError } from '@/lib/errors';
import { formatBytes } from '@/lib/format';

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
  const capacity = node
    ? nodeCapacity(
        node,
        usage.data?.find((u) => u.nodeId === node.id),
      )
    : undefined;

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

  const stepError = (step: Step) => Object.keys(errors).some((f) => stepOfField(f) === step);

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
          {STEPS[active] === 'review' ? <ReviewStep form={form} owner={users.data?.find((u) => u.id === form.ownerId)?.username} node={node?.name} egg={egg.data?.name} addressOf={addressOf} error={create.error} /> : null}
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
