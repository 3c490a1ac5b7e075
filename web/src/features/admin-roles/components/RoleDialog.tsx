import { Box, Button, Divider, Group, Modal, MultiSelect, Paper, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { type Role, type RoleBody, type RolePermission, roleNodeChoicesQuery, useSaveRole } from '@/features/admin-roles/api';
import { ADMIN_AREAS, type AdminArea, READ_ONLY_AREAS } from '@/features/auth/admin-access';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify } from '@/lib/notify';

/** A level's label stays on one line (the columns are sized for it). */
const NO_WRAP = { label: { whiteSpace: 'nowrap' as const } };

/** One row of the matrix: nothing, read, or read and write. */
type Level = 'none' | RolePermission['access'];

/** The permissions a matrix names, in the order of the areas (nothing for "none"). */
const permissionsOf = (matrix: Readonly<Record<AdminArea, Level>>): RolePermission[] =>
  ADMIN_AREAS.flatMap((area) => {
    const level = matrix[area];
    return level === 'none' ? [] : [{ area, access: READ_ONLY_AREAS.has(area) ? 'read' : level }];
  });

const matrixOf = (permissions: readonly RolePermission[]): Record<AdminArea, Level> => {
  const matrix = Object.fromEntries(ADMIN_AREAS.map((area) => [area, 'none'])) as Record<AdminArea, Level>;
  for (const { area, access } of permissions) {
    matrix[area] = access;
  }
  return matrix;
};

/**
 * The errors of a failed save on the fields they belong to: the name (taken, or invalid), the
 * permissions, the nodes (one deleted meanwhile); anything else shows under the form.
 */
const roleFieldErrors = (error: unknown): Record<'name' | 'permissions' | 'nodeIds', string | undefined> => {
  if (!(error instanceof ApiError)) {
    return { name: undefined, permissions: undefined, nodeIds: undefined };
  }
  const fields = fieldErrors(error);
  const first = (prefix: string) => Object.entries(fields).find(([field]) => field === prefix || field.startsWith(`${prefix}.`) || field.startsWith(`${prefix}[`))?.[1];
  return {
    name: error.code === 'ROLE_NAME_TAKEN' ? error.message : first('name'),
    permissions: error.code === 'ROLE_DUPLICATE_AREA' || error.code === 'ROLE_READ_ONLY_AREA' ? error.message : first('permissions'),
    nodeIds: error.code === 'ROLE_UNKNOWN_NODE' ? error.message : first('nodeIds'),
  };
};

/** New (`role` undefined) or edit: a name, what each area allows, and every node or some. */
export const RoleDialog = ({ role, onClose }: { role?: Role; onClose: () => void }) => {
  const { t } = useTranslation();
  const save = useSaveRole();
  const nodes = useQuery(roleNodeChoicesQuery());
  const [name, setName] = useState(role?.name ?? '');
  const [matrix, setMatrix] = useState(() => matrixOf(role?.permissions ?? []));
  const [limited, setLimited] = useState(role ? !role.allNodes : false);
  const [nodeIds, setNodeIds] = useState<string[]>(role?.nodeIds ?? []);
  const [noNode, setNoNode] = useState(false);
  const errors = roleFieldErrors(save.error);
  const shownElsewhere = Object.values(errors).some((e) => e !== undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (limited && nodeIds.length === 0) {
      setNoNode(true);
      return;
    }
    const body: RoleBody = { name: name.trim(), permissions: permissionsOf(matrix), nodeIds: limited ? nodeIds : [] };
    save.mutate(
      { id: role?.id, body },
      {
        onSuccess: (saved) => {
          notify({ color: 'green', message: t(role ? 'adminRoles.saved' : 'adminRoles.created', { name: saved.name }) });
          onClose();
        },
      },
    );
  };
  // Nodes deleted since the role was saved keep their id as the label, so they can still be removed.
  const nodeData = [...(nodes.data ?? []).map((n) => ({ value: n.id, label: n.name })), ...nodeIds.filter((id) => !nodes.data?.some((n) => n.id === id)).map((id) => ({ value: id, label: `#${id}` }))];
  return (
    <Modal
      opened
      onClose={save.isPending ? () => undefined : onClose}
      title={role ? t('adminRoles.editTitle', { name: role.name }) : t('adminRoles.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('adminRoles.name')} description={t('adminRoles.nameHelp')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} maxLength={64} required data-autofocus />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="role-permissions-label">
              {t('adminRoles.permissions')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('adminRoles.permissionsHelp')}
            </Text>
            <Paper withBorder radius="md" px="sm" py={6} role="group" aria-labelledby="role-permissions-label">
              {ADMIN_AREAS.map((area, index) => (
                <Fragment key={area}>
                  {index > 0 ? <Divider /> : null}
                  <Radio.Group
                    value={matrix[area]}
                    onChange={(value) => setMatrix((m) => ({ ...m, [area]: value }))}
                    label={t(`adminRoles.areas.${area}`)}
                    py={6}
                    styles={{ root: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', columnGap: 'var(--mantine-spacing-md)', rowGap: 4 } }}
                  >
                    {/* Fixed columns, so that None, Read and Read & write line up from row to row (the audit log has no third). */}
                    <Box style={{ display: 'grid', gridTemplateColumns: '4.75rem 4.75rem 8rem', alignItems: 'center' }}>
                      <Radio value="none" label={t('adminRoles.none')} styles={NO_WRAP} />
                      <Radio value="read" label={t('adminRoles.read')} styles={NO_WRAP} />
                      {READ_ONLY_AREAS.has(area) ? null : <Radio value="write" label={t('adminRoles.write')} styles={NO_WRAP} />}
                    </Box>
                  </Radio.Group>
                </Fragment>
              ))}
            </Paper>
            {errors.permissions ? (
              <Text size="xs" c="red" role="alert">
                {errors.permissions}
              </Text>
            ) : null}
          </Stack>
          <Radio.Group
            label={t('adminRoles.nodes')}
            description={t('adminRoles.nodesHelp')}
            value={limited ? 'some' : 'all'}
            onChange={(value) => {
              setLimited(value === 'some');
              setNoNode(false);
            }}
          >
            <Group gap="md" mt={6}>
              <Radio value="all" label={t('adminRoles.allNodes')} />
              <Radio value="some" label={t('adminRoles.someNodes')} />
            </Group>
          </Radio.Group>
          {limited ? (
            <MultiSelect
              label={t('adminRoles.nodeList')}
              placeholder={nodeIds.length === 0 ? t('adminRoles.nodeListPlaceholder') : undefined}
              data={nodeData}
              value={nodeIds}
              onChange={(value) => {
                setNodeIds(value);
                setNoNode(false);
              }}
              searchable
              nothingFoundMessage={nodes.isPending ? t('adminRoles.nodesLoading') : t('adminRoles.noNodes')}
              error={noNode ? t('adminRoles.nodeRequired') : errors.nodeIds}
              required
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
          {save.error && !shownElsewhere ? <FormError error={save.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {role ? t('adminRoles.save') : t('adminRoles.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};
