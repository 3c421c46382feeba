import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { SECTION_STRINGS } from './strings';

type SectionEditOptions<Values> = {
  /** Sends the values (the account is read again by onSaved). */
  saveValues: (values: Values) => Promise<unknown>;
  onSaved: () => Promise<void>;
  onNotify: (message: string) => void;
  /** Puts the stored values back into the form: on 编辑 and on 取消. */
  resetForm: () => void;
};

/**
 * The edit mode of an editable section of /my: 编辑 starts from the stored values, 取消 puts them back,
 * and a save that worked reads the account again, leaves the edit mode and says 已保存.
 */
export function useSectionEdit<Values>({ saveValues, onSaved, onNotify, resetForm }: SectionEditOptions<Values>) {
  const [isEditing, setIsEditing] = useState(false);
  const save = useMutation({
    mutationFn: async (values: Values) => {
      await saveValues(values);
      await onSaved();
    },
    onSuccess: () => {
      setIsEditing(false);
      onNotify(SECTION_STRINGS.saved);
    },
  });
  const restart = (editing: boolean) => {
    resetForm();
    save.reset();
    setIsEditing(editing);
  };
  return { isEditing, save, startEditing: () => restart(true), cancel: () => restart(false) };
}
