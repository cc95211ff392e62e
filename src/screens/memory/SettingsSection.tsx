import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { CheckboxField } from '../../components/form/ChoiceFields';
import { ChoiceGroup, ChoiceLabel, FieldFrame } from '../../components/form/FieldFrame';
import { UnsavedChangesDialog } from '../../components/form/UnsavedChangesDialog';
import { Button } from '../../components/ui/Button';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import { memorialKeys, updatePage, type MemorialPage } from '../../services/api/memorial';
import { PRIVACY_SETTINGS, type Privacy } from '../../../contract/rules/memorialLimits';
import { Panel } from '../../components/ui/pageLayout';
import { problemsOf, useProblemText, type Problems } from './inputProblems';
import { SectionTitle } from './sectionLayout';

/** Who may see the page and whether it may appear in user search (admins only). */
export function SettingsSection({ page }: { page: MemorialPage }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [privacy, setPrivacy] = useState<Privacy>(page.privacy);
  const [searchable, setSearchable] = useState(page.searchable);
  const [problems, setProblems] = useState<Problems>({});
  const problem = useProblemText(problems);
  const dirty = privacy !== page.privacy || searchable !== page.searchable;
  const save = useMutation({
    mutationFn: () => updatePage(page.memorialPageId, { privacy, searchable }),
    onSuccess: (saved) => {
      queryClient.setQueryData(memorialKeys.page(page.memorialPageId), saved);
      setProblems({});
      void showToast(t('memory-settings-saved'), 'success');
    },
    onError: (error) => setProblems(problemsOf(error)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Panel id="settings" aria-labelledby="memory-settings-title">
      <SectionTitle id="memory-settings-title">{t('memory-settings-title')}</SectionTitle>
      <form onSubmit={submit} noValidate>
        {problems.form && <p role="alert">{problem('form')}</p>}
        {/* Every page has a privacy setting, so the choice offers no "none" (RadioField does). */}
        <FieldFrame id="memory-privacy" error={problem('privacy')}>
          <ChoiceGroup id="memory-privacy" disabled={save.isPending}>
            <legend>{t('memory-privacy-label')}</legend>
            {PRIVACY_SETTINGS.map((value) => (
              <ChoiceLabel key={value}>
                <input
                  type="radio"
                  name="memory-privacy"
                  value={value}
                  checked={privacy === value}
                  onChange={() => setPrivacy(value)}
                />
                {t(`memory-privacy-${value}`)}
              </ChoiceLabel>
            ))}
          </ChoiceGroup>
        </FieldFrame>
        <CheckboxField
          id="memory-searchable"
          label={t('memory-searchable-label')}
          value={searchable}
          onChange={setSearchable}
          error={problem('searchable')}
          disabled={save.isPending}
        />
        <Button type="submit" disabled={save.isPending || !dirty}>
          {save.isPending ? t('memory-saving') : t('memory-settings-save')}
        </Button>
        <UnsavedChangesDialog when={dirty && !save.isPending} />
      </form>
    </Panel>
  );
}
