import { TextInput } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { AllowedIpsInput, allowedIpsProblem } from '@/components/AllowedIpsInput';
import type { KeyFieldsProps } from '@/components/KeyManager';
import { parseAllowedIps } from '@/lib/allowed-ips';

/** A Pterodactyl-style key's form: what it is for, and the addresses it may be used from. */
export interface DescribedKeyForm {
  description: string;
  ipsText: string;
}

export const emptyDescribedKey = (): DescribedKeyForm => ({ description: '', ipsText: '' });

/** The request's description and allowed IPs, or null while the description is empty or an address is wrong. */
export const describedKeyBody = ({ description, ipsText }: DescribedKeyForm, t: TFunction): { description: string; allowedIps: string[] } | null =>
  description.trim() !== '' && allowedIpsProblem(ipsText, t) === undefined ? { description: description.trim(), allowedIps: parseAllowedIps(ipsText).ips } : null;

interface DescribedKeyFieldsProps<TForm extends DescribedKeyForm> extends KeyFieldsProps<TForm> {
  label: string;
  help: string;
}

/** The description and allowed-IPs fields of a create-key dialog. */
export const DescribedKeyFields = <TForm extends DescribedKeyForm>({ form, onChange, errors, label, help }: DescribedKeyFieldsProps<TForm>) => {
  const { t } = useTranslation();
  return (
    <>
      <TextInput label={label} description={help} value={form.description} onChange={(e) => onChange({ ...form, description: e.currentTarget.value })} maxLength={500} error={errors.description} required data-autofocus />
      <AllowedIpsInput value={form.ipsText} onChange={(ipsText) => onChange({ ...form, ipsText })} error={allowedIpsProblem(form.ipsText, t) ?? errors.allowedIps} />
    </>
  );
};
