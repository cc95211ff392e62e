import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { visuallyHidden } from '../../components/ui/visuallyHidden';
import { DropdownField } from '../../components/form/ChoiceFields';
import {
  ChoiceGroup,
  ChoiceLabel,
  describedBy,
  FieldFrame,
} from '../../components/form/FieldFrame';
import { DateField, InputField } from '../../components/form/TextFields';
import { Avatar } from '../../components/ui/Avatar';
import { Button } from '../../components/ui/Button';
import { showToast } from '../../components/ui/toast';
import { UploadProgress } from '../../components/upload/UploadProgress';
import { UploadCancelled, useUploadProgress } from '../../components/upload/useUploadProgress';
import { useT } from '../../i18n/useT';
import { homeKeys, updateProfile, type Profile, type ProfileUpdate } from '../../services/api/home';
import { UploadRefused } from '../../services/api/uploads';
import { useSession } from '../../services/session/useSession';
import { NAME_MAX_LENGTH, SEX_CODES, type SexCode } from '../../../contract/rules/account';
import { PREFECTURES } from '../../../contract/rules/prefectures';
import { profileUpdateSchema } from '../../../contract/rules/social';
import { FormMessage } from '../login/authFormParts';
import { codesOfAnswer, codesOfIssues, type FieldCodes } from './formErrors';

/**
 * The browser's own file button speaks the browser's language; the input stays in the page
 * (label, keyboard, screen readers) but its look is this outlined button.
 */
const IconPicker = styled.label`
  display: inline-flex;
  align-items: center;
  min-height: 44px;
  padding: 8px 20px;
  border-radius: 999px;
  border: 2px solid ${({ theme }) => theme.colours.primary};
  color: ${({ theme }) => theme.colours.primary};
  font-weight: bold;
  cursor: pointer;
  input:focus-visible + & {
    outline: 3px solid ${({ theme }) => theme.colours.primary};
    outline-offset: 2px;
  }
`;

const IconRow = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 16px;
`;

const HiddenFileInput = styled.input`
  ${visuallyHidden}
`;

const PREFECTURE_CHOICES = PREFECTURES.map(({ name }) => ({ value: name, label: name }));

const NAME_FIELDS = [
  ['last_name', 'register-last-name'],
  ['first_name', 'register-first-name'],
  ['last_name_kana', 'register-last-name-kana'],
  ['first_name_kana', 'register-first-name-kana'],
] as const;

type FormField = (typeof NAME_FIELDS)[number][0] | 'address' | 'birthdate' | 'sex_code';
type Form = Record<FormField, string>;

function formOf(profile: Profile): Form {
  return {
    last_name: profile.lastName,
    first_name: profile.firstName,
    last_name_kana: profile.lastNameKana,
    first_name_kana: profile.firstNameKana,
    address: profile.address ?? '',
    birthdate: profile.birthdate ?? '',
    sex_code: profile.sexCode === null ? '' : String(profile.sexCode),
  };
}

/** Keeps the saved profile in the query cache and the header's avatar in the session. */
function useSaveProfile() {
  const queryClient = useQueryClient();
  const session = useSession();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: async (saved) => {
      queryClient.setQueryData(homeKeys.profile, saved);
      if (session.user && saved.iconUrl !== session.user.iconUrl) {
        await session.update({ iconUrl: saved.iconUrl }).catch(() => undefined);
      }
    },
  });
}

function IconField({ profile }: { profile: Profile }) {
  const t = useT();
  const save = useSaveProfile();
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { progress, upload, cancel } = useUploadProgress();
  const name = `${profile.lastName} ${profile.firstName}`;
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    setUploading(true);
    try {
      const iconName = await upload(file);
      await save.mutateAsync({ iconName });
      void showToast(t('mypage-icon-saved'), 'success');
    } catch (error) {
      if (error instanceof UploadCancelled) return;
      const code = error instanceof UploadRefused ? error.code : codesOfAnswer(error)?.icon_name;
      setProblem(code ? t(`validation-${code}`) : t('mypage-icon-failed'));
    } finally {
      setUploading(false);
    }
  };
  return (
    <FieldFrame id="mypage-icon" error={problem ?? undefined}>
      <IconRow>
        <Avatar image={profile.iconUrl} name={name} size={72} smallSize={64} showBadge={false} />
        <HiddenFileInput
          id="mypage-icon"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          disabled={uploading}
          onChange={(event) => void choose(event.target.files?.[0])}
          {...describedBy('mypage-icon', problem ?? undefined)}
        />
        <IconPicker htmlFor="mypage-icon">{t('mypage-icon-label')}</IconPicker>
      </IconRow>
      {progress ? (
        <UploadProgress fileName={progress.fileName} percent={progress.percent} onCancel={cancel} />
      ) : (
        uploading && <p role="status">{t('mypage-icon-uploading')}</p>
      )}
    </FieldFrame>
  );
}

/** Names, kana, prefecture, birthdate and sex, checked with the registration's rules. */
export function MemberProfileForm({ profile }: { profile: Profile }) {
  const t = useT();
  const save = useSaveProfile();
  const [form, setForm] = useState<Form>(() => formOf(profile));
  const [codes, setCodes] = useState<FieldCodes>({});
  const [failed, setFailed] = useState(false);
  const error = (field: FormField) => (codes[field] ? t(`validation-${codes[field]}`) : undefined);
  const edit = (field: FormField) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setCodes(({ [field]: _dropped, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailed(false);
    const wire = { ...form, sex_code: form.sex_code === '' ? undefined : Number(form.sex_code) };
    const checked = profileUpdateSchema().safeParse(wire);
    if (!checked.success) {
      setCodes(codesOfIssues(checked.error.issues));
      return;
    }
    const update: ProfileUpdate = {
      lastName: checked.data.last_name,
      firstName: checked.data.first_name,
      lastNameKana: checked.data.last_name_kana,
      firstNameKana: checked.data.first_name_kana,
      address: checked.data.address,
      birthdate: checked.data.birthdate,
      sexCode: checked.data.sex_code as SexCode | undefined,
    };
    try {
      const saved = await save.mutateAsync(update);
      setForm(formOf(saved));
      setCodes({});
      void showToast(t('mypage-profile-saved'), 'success');
    } catch (failure) {
      const answered = codesOfAnswer(failure);
      if (answered) setCodes(answered);
      else setFailed(true);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <IconField profile={profile} />
      {NAME_FIELDS.map(([field, label]) => (
        <InputField
          key={field}
          id={`mypage-${field}`}
          label={t(label)}
          value={form[field]}
          onChange={edit(field)}
          error={error(field)}
          maxLength={NAME_MAX_LENGTH}
        />
      ))}
      <DropdownField
        id="mypage-address"
        label={t('register-address')}
        value={form.address}
        onChange={edit('address')}
        error={error('address')}
        choices={PREFECTURE_CHOICES}
        noneLabel={t('register-address-none')}
      />
      <DateField
        id="mypage-birthdate"
        label={t('register-birthdate')}
        value={form.birthdate}
        onChange={edit('birthdate')}
        error={error('birthdate')}
      />
      <FieldFrame id="mypage-sex" error={error('sex_code')}>
        <ChoiceGroup id="mypage-sex" {...describedBy('mypage-sex', error('sex_code'))}>
          <legend>{t('register-sex')}</legend>
          {SEX_CODES.map((code) => (
            <ChoiceLabel key={code}>
              <input
                type="radio"
                name="mypage-sex"
                value={String(code)}
                checked={form.sex_code === String(code)}
                onChange={() => edit('sex_code')(String(code))}
              />
              {t(`register-sex-${code}`)}
            </ChoiceLabel>
          ))}
        </ChoiceGroup>
      </FieldFrame>
      {failed && <FormMessage>{t('mypage-save-failed')}</FormMessage>}
      <Button type="submit" disabled={save.isPending}>
        {t('mypage-profile-save')}
      </Button>
    </form>
  );
}
