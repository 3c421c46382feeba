// @vitest-environment happy-dom
import type { ResearchConfirmResponse, TaskStatusResponse, UserResponse } from '@radar/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newUser, testUser } from '@/testing/api-fixtures';
import { renderApp, useFakeApi } from '@/testing/render-app';

const CONFIRM = '/api/auth/research-direction/confirm/';

describe('/my', () => {
  const api = useFakeApi();

  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the account, research info and basic info, and edits the research fields', async () => {
    const user = testUser();
    const { user: events } = renderApp(api, '/my', { user });

    expect(await screen.findByText(user.research_summary_en)).toBeTruthy();
    expect(screen.getAllByText(user.email).length).toBeGreaterThan(0);
    expect(screen.getByText('计算机科学')).toBeTruthy();
    expect(screen.getByText('李华')).toBeTruthy();
    expect(screen.getByText('博士研究生')).toBeTruthy();
    expect(screen.getByText('清华大学')).toBeTruthy();

    await events.click(screen.getByRole('button', { name: '编辑研究信息' }));
    expect(screen.getByText('已选择 1 个领域')).toBeTruthy();
    await events.click(screen.getByRole('checkbox', { name: '物理与天文学' }));
    expect(screen.getByText('已选择 2 个领域')).toBeTruthy();

    const saved: UserResponse = { ...user, research_fields: 'computer-science,physics-astronomy' };
    api.on('POST', CONFIRM, { body: confirmResponse(saved) });
    api.on('GET', '/api/auth/user/', { body: saved });
    await events.click(screen.getByRole('button', { name: '保存' }));

    // Saved: back to the view, which shows the stored fields as chips.
    await screen.findByRole('button', { name: '编辑研究信息' });
    expect(screen.queryByRole('checkbox', { name: '物理与天文学' })).toBeNull();
    expect(screen.getByText('物理与天文学')).toBeTruthy();
    expect(api.requestsTo('POST', CONFIRM)[0]?.body).toEqual({
      research_summary_en: user.research_summary_en,
      research_fields: ['computer-science', 'physics-astronomy'],
    });
  });

  it('stays signed in when the account refresh after a save fails on the server (only a 401 logs out)', async () => {
    const user = testUser();
    const { user: events } = renderApp(api, '/my', { user });
    await events.click(await screen.findByRole('button', { name: '编辑研究信息' }));
    await events.click(screen.getByRole('checkbox', { name: '物理与天文学' }));
    const saved: UserResponse = { ...user, research_fields: 'computer-science,physics-astronomy' };
    api.on('POST', CONFIRM, { body: confirmResponse(saved) });
    api.on('GET', '/api/auth/user/', { status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: '服务暂时不可用' } });
    await events.click(screen.getByRole('button', { name: '保存' }));

    await screen.findByRole('button', { name: '编辑研究信息' });
    await waitFor(() => expect(api.requestsTo('GET', '/api/auth/user/').length).toBeGreaterThanOrEqual(2));
    // Still on /my with the session: the account as it was, the token kept, no login prompt.
    expect(screen.getAllByText(user.email).length).toBeGreaterThan(0);
    expect(window.localStorage.getItem('token')).not.toBeNull();
    expect(screen.queryByRole('button', { name: '登录' })).toBeNull();
  });

  it('cancels an edit back to the stored values', async () => {
    const { user: events } = renderApp(api, '/my', { user: testUser() });
    await events.click(await screen.findByRole('button', { name: '编辑研究信息' }));
    await events.click(screen.getByRole('checkbox', { name: '物理与天文学' }));
    await events.click(screen.getByRole('button', { name: '取消' }));

    expect(screen.queryByText('物理与天文学')).toBeNull();
    expect(screen.getByText('计算机科学')).toBeTruthy();
    expect(api.requestsTo('POST', CONFIRM)).toHaveLength(0);
  });

  it('opens the first-visit guide 500 ms after load when there is no research info', async () => {
    // The fake clock moves 20 ms per turn of the event loop while the page loads, far from the 500 ms.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user: events } = renderApp(api, '/my', { user: newUser() });
    expect(await screen.findByText('还没有研究信息：粘贴研究主页的文字，AI 帮你生成。')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(500));
    const guide = within(screen.getByRole('dialog', { name: '完善研究信息，获取个性化推荐' }));
    expect(guide.getByRole('button', { name: '稍后提醒' })).toBeTruthy();
    expect(guide.getByRole('button', { name: '不再提醒' })).toBeTruthy();

    await events.click(guide.getByRole('button', { name: '立即完善' }));
    expect(await screen.findByRole('dialog', { name: 'AI 生成研究信息' })).toBeTruthy();
  });

  it('generates research info with the AI dialog: input with a counter, analysing, success', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const before = testUser();
    const { user: events, fill } = renderApp(api, '/my', { user: before });
    await events.click(await screen.findByRole('button', { name: '生成研究信息' }));

    const dialog = within(await screen.findByRole('dialog', { name: 'AI 生成研究信息' }));
    expect(dialog.getByText('0/3000')).toBeTruthy();
    expect(dialog.getByRole('button', { name: '开始生成' })).toHaveProperty('disabled', true);
    const homepage = '李华，清华大学博士研究生，研究分子图神经网络。';
    await fill(dialog.getByRole('textbox', { name: '研究方向描述' }), homepage);
    expect(dialog.getByText(`${homepage.length}/3000`)).toBeTruthy();

    api.on('POST', '/api/auth/research-direction/process-async/', { body: { task_id: 'task-42', status: 'pending' } });
    api.on('GET', '/api/auth/tasks/:id/status/', { body: taskStatus({ status: 'processing' }) });
    await events.click(dialog.getByRole('button', { name: '开始生成' }));

    expect(await dialog.findByText('任务编号：task-42')).toBeTruthy();
    expect(dialog.getByText('AI 正在分析你的研究方向')).toBeTruthy();
    expect(dialog.getByText('这可能需要 5-15 秒，请稍候')).toBeTruthy();
    expect(dialog.getByRole('button', { name: '重新开始' })).toBeTruthy();

    const after: UserResponse = { ...before, research_summary_en: 'Molecular graph learning.' };
    api.on('GET', '/api/auth/tasks/:id/status/', { body: taskStatus({ status: 'completed' }) });
    api.on('POST', CONFIRM, { body: confirmResponse(after) });
    api.on('GET', '/api/auth/user/', { body: after });
    // The task is polled every 2 s.
    await act(() => vi.advanceTimersByTimeAsync(2000));

    expect(await dialog.findByText('研究信息已生成')).toBeTruthy();
    expect(dialog.getByText('现在你可以使用全部功能了')).toBeTruthy();
    expect(api.requestsTo('POST', '/api/auth/research-direction/process-async/')[0]?.body).toEqual({
      research_description: homepage,
    });
    expect(api.requestsTo('POST', CONFIRM)[0]?.body).toMatchObject({
      research_summary_en: 'Molecular graph learning.',
      research_fields: ['computer-science'],
    });

    await events.click(dialog.getByRole('button', { name: '确定' }));
    expect(await screen.findByText('Molecular graph learning.')).toBeTruthy();
  });

  it('counts the pasted text as the reader does, and says beside the start button when it is too long', async () => {
    const { user: events, fill } = renderApp(api, '/my', { user: testUser() });
    await events.click(await screen.findByRole('button', { name: '生成研究信息' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'AI 生成研究信息' }));
    const box = dialog.getByRole('textbox', { name: '研究方向描述' });

    await fill(box, '🔬🧬🧪📚🎓👩‍🔬');
    expect(dialog.getByTestId('research-dialog-counter').textContent).toBe('6/3000');
    expect(dialog.queryByTestId('research-dialog-too-long')).toBeNull();

    await events.clear(box);
    await fill(box, '分'.repeat(3001));
    expect(dialog.getByTestId('research-dialog-counter').textContent).toBe('3001/3000');
    const message = dialog.getByRole('alert');
    expect(message.textContent).toBe('研究方向描述不能超过 3000 个字符（现有 3001 个），请删减后再开始生成');
    // In the actions row, beside the disabled button, not under a box taller than the screen.
    expect(message.parentElement).toBe(dialog.getByRole('button', { name: '开始生成' }).parentElement);
    expect(dialog.getByRole('button', { name: '开始生成' })).toHaveProperty('disabled', true);
  });

  it('never claims success without an English summary: says what is missing and saves a paragraph typed there', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const before = newUser();
    const { user: events, fill } = renderApp(api, '/my', { user: before });
    await events.click(await screen.findByRole('button', { name: '生成研究信息' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'AI 生成研究信息' }));
    await fill(
      dialog.getByRole('textbox', { name: '研究方向描述' }),
      '陈思远 教授\n复旦大学历史学系\n研究方向：明清社会经济史。',
    );

    // What the offline rules give for a Chinese historian's page: fields on evidence, no English summary.
    const historian = {
      name: '陈思远',
      email: 'chensiyuan@fudan.edu.cn',
      institution: '复旦大学历史学系',
      position: '教授',
      research_fields: ['history'],
      research_summary_en: '',
      source: 'offline' as const,
      model: 'offline-rules',
      notices: [],
    };
    const saved: UserResponse = { ...before, research_fields: 'history' };
    api.on('POST', '/api/auth/research-direction/process-async/', { body: { task_id: 'task-42', status: 'pending' } });
    api.on('GET', '/api/auth/tasks/:id/status/', { body: taskStatus({ status: 'completed', result_data: historian }) });
    api.on('POST', CONFIRM, { body: confirmResponse(saved) });
    api.on('GET', '/api/auth/user/', { body: saved });
    await events.click(dialog.getByRole('button', { name: '开始生成' }));

    expect(await dialog.findByText('还没有英文研究方向')).toBeTruthy();
    expect(dialog.queryByText('研究信息已生成')).toBeNull();
    expect(dialog.queryByText('现在你可以使用全部功能了')).toBeNull();
    expect(dialog.getByTestId('research-dialog-offline').textContent).toContain('离线规则');
    expect(dialog.getByTestId('research-dialog-report-summary').textContent).toContain('未生成');
    expect(dialog.getByTestId('research-dialog-report-fields').textContent).toContain('历史学');
    // The page's e-mail is not the account's: the personal values were not saved, and it says so.
    expect(dialog.getByTestId('research-dialog-report-name').textContent).toContain('可能是导师的主页');
    expect(dialog.getByText(/请管理员为科研雷达配置 AI 模型/)).toBeTruthy();
    // Saved at once, without an empty summary that would wipe a stored one.
    expect(api.requestsTo('POST', CONFIRM)[0]?.body).toEqual({
      research_name: '',
      research_email: 'chensiyuan@fudan.edu.cn',
      research_institution: '',
      research_position: '',
      research_fields: ['history'],
    });

    const input = dialog.getByRole('textbox', { name: '英文研究方向' });
    await fill(input, '明清社会经济史');
    await events.click(dialog.getByRole('button', { name: '保存研究方向' }));
    expect(dialog.getByText('请用英文填写研究方向')).toBeTruthy();
    expect(api.requestsTo('POST', CONFIRM)).toHaveLength(1);

    const paragraph = 'I study the social and economic history of Ming-Qing China, especially Jiangnan market towns.';
    const after: UserResponse = { ...saved, research_summary_en: paragraph };
    api.on('POST', CONFIRM, { body: confirmResponse(after) });
    api.on('GET', '/api/auth/user/', { body: after });
    await events.clear(input);
    await fill(input, paragraph);
    await events.click(dialog.getByRole('button', { name: '保存研究方向' }));

    expect(await dialog.findByText('研究信息已生成')).toBeTruthy();
    expect(dialog.getByText('现在你可以使用全部功能了')).toBeTruthy();
    expect(api.requestsTo('POST', CONFIRM)[1]?.body).toEqual({
      research_name: '',
      research_email: 'chensiyuan@fudan.edu.cn',
      research_institution: '',
      research_position: '',
      research_fields: ['history'],
      research_summary_en: paragraph,
    });
    await events.click(dialog.getByRole('button', { name: '确定' }));
    expect(await screen.findByText(paragraph)).toBeTruthy();
  });

  it('shows a glossed English draft to check and edit, saving it only when the user does', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const before = newUser();
    const { user: events, fill } = renderApp(api, '/my', { user: before });
    await events.click(await screen.findByRole('button', { name: '生成研究信息' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'AI 生成研究信息' }));
    await fill(
      dialog.getByRole('textbox', { name: '研究方向描述' }),
      '周雅琴 研究员\n研究方向：肠道干细胞与炎症性肠病。',
    );

    const draft = 'Research interests: intestinal stem cell, inflammatory bowel disease.';
    const biologist = {
      name: '周雅琴',
      email: 'zhouyaqin@sibcb.ac.cn',
      institution: '',
      position: '研究员',
      research_fields: ['biology', 'medicine'],
      research_summary_en: draft,
      research_direction_origin: 'offline-gloss' as const,
      source: 'offline' as const,
      model: 'offline-rules',
      notices: [],
    };
    const saved: UserResponse = { ...before, research_fields: 'biology,medicine' };
    api.on('POST', '/api/auth/research-direction/process-async/', { body: { task_id: 'task-42', status: 'pending' } });
    api.on('GET', '/api/auth/tasks/:id/status/', { body: taskStatus({ status: 'completed', result_data: biologist }) });
    api.on('POST', CONFIRM, { body: confirmResponse(saved) });
    api.on('GET', '/api/auth/user/', { body: saved });
    await events.click(dialog.getByRole('button', { name: '开始生成' }));

    // A draft to check: how it was made, in the English box; never a success claim yet.
    expect(await dialog.findByText('请检查英文研究方向草稿')).toBeTruthy();
    expect(dialog.getByTestId('research-dialog-draft').textContent).toContain('由内置规则根据中文主页逐词翻译生成');
    expect(dialog.queryByText('还没有英文研究方向')).toBeNull();
    expect(dialog.queryByText('研究信息已生成')).toBeNull();
    expect(dialog.getByTestId('research-dialog-report-summary').textContent).toContain('待你检查后保存');
    const input = dialog.getByRole('textbox', { name: '英文研究方向' }) as HTMLTextAreaElement;
    expect(input.value).toBe(draft);
    // The rest is saved at once; the draft is not.
    expect(api.requestsTo('POST', CONFIRM)).toHaveLength(1);
    expect(api.requestsTo('POST', CONFIRM)[0]?.body).not.toHaveProperty('research_summary_en');
    expect(api.requestsTo('POST', CONFIRM)[0]?.body).toMatchObject({ research_fields: ['biology', 'medicine'] });

    const edited = `${draft} We study how gut stem cells repair the epithelium in colitis.`;
    const after: UserResponse = { ...saved, research_summary_en: edited };
    api.on('POST', CONFIRM, { body: confirmResponse(after) });
    api.on('GET', '/api/auth/user/', { body: after });
    await events.clear(input);
    await fill(input, edited);
    await events.click(dialog.getByRole('button', { name: '保存研究方向' }));

    expect(await dialog.findByText('研究信息已生成')).toBeTruthy();
    expect(api.requestsTo('POST', CONFIRM)[1]?.body).toMatchObject({
      research_fields: ['biology', 'medicine'],
      research_summary_en: edited,
    });
    await events.click(dialog.getByRole('button', { name: '确定' }));
    expect(await screen.findByText(edited)).toBeTruthy();
  });

  it('decides from the spec-only result fields: no summary and no field is reported without a source line', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user: events, fill } = renderApp(api, '/my', { user: newUser() });
    await events.click(await screen.findByRole('button', { name: '生成研究信息' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'AI 生成研究信息' }));
    await fill(dialog.getByRole('textbox', { name: '研究方向描述' }), '王老师的主页');
    const specOnly = {
      name: '王明',
      email: '',
      institution: '',
      position: '',
      research_fields: [],
      research_summary_en: '',
    };
    api.on('POST', '/api/auth/research-direction/process-async/', { body: { task_id: 'task-42', status: 'pending' } });
    api.on('GET', '/api/auth/tasks/:id/status/', {
      body: taskStatus({ status: 'completed', result_data: specOnly as unknown as TaskStatusResponse['result_data'] }),
    });
    api.on('POST', CONFIRM, { body: confirmResponse(newUser()) });
    api.on('GET', '/api/auth/user/', { body: newUser() });
    await events.click(dialog.getByRole('button', { name: '开始生成' }));

    expect(await dialog.findByText('还没有英文研究方向')).toBeTruthy();
    expect(dialog.queryByText('研究信息已生成')).toBeNull();
    expect(dialog.queryByTestId('research-dialog-offline')).toBeNull();
    expect(dialog.getByTestId('research-dialog-report-fields').textContent).toContain('未识别');
    await events.click(dialog.getByRole('button', { name: '稍后填写' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('/my: profile from one’s own works (beyond the spec)', () => {
  const api = useFakeApi();

  it('offers no other source when the backend does not say it has them (a spec-only backend)', async () => {
    const { user: events } = renderApp(api, '/my', { user: newUser() });
    await events.click(await screen.findByRole('button', { name: '生成研究信息' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'AI 生成研究信息' }));
    expect(dialog.getByRole('textbox', { name: '研究方向描述' })).toBeTruthy();
    await waitFor(() => expect(api.requestsTo('GET', '/api/config/').length).toBeGreaterThan(0));
    expect(dialog.queryByTestId('research-dialog-sources')).toBeNull();
  });

  it('uploads a library file, then shows the summary drafted from the works for confirmation', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const before = newUser();
    api.on('GET', '/api/config/', {
      body: {
        support_email: null,
        time_zone: 'Asia/Shanghai',
        own_works: { orcid: true, openalex: false, library: true },
      },
    });
    const { user: events } = renderApp(api, '/my', { user: before });
    await events.click(await screen.findByRole('button', { name: '生成研究信息' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'AI 生成研究信息' }));
    await events.click(await dialog.findByRole('button', { name: '上传文献库文件' }));
    const bibtex = '@article{a, title={Kelp forest decline under ocean warming}, doi={10.5555/kelp.1}, year={2022}}';
    await events.upload(dialog.getByTestId('own-works-file'), new File([bibtex], 'mine.bib', { type: 'text/plain' }));
    expect(dialog.getByText('已选择：mine.bib')).toBeTruthy();

    const drafted = 'My recent work: Kelp forest decline under ocean warming.';
    api.on('POST', '/api/auth/research-direction/from-library/', {
      status: 202,
      body: { task_id: 'task-42', status: 'pending' },
    });
    api.on('GET', '/api/auth/tasks/:id/status/', {
      body: taskStatus({
        status: 'completed',
        result_data: {
          name: '',
          email: '',
          institution: '',
          position: '',
          research_fields: ['earth-sciences'],
          research_summary_en: drafted,
          research_direction_origin: 'own-works',
          source: 'offline',
          model: 'offline-rules',
          notices: [],
          own_works: { source: 'library', found: 1, stored: 1, with_abstract: 0 },
        },
      }),
    });
    const saved: UserResponse = { ...before, research_fields: 'earth-sciences' };
    api.on('POST', CONFIRM, { body: confirmResponse(saved) });
    api.on('GET', '/api/auth/user/', { body: saved });
    await events.click(dialog.getByRole('button', { name: '开始生成' }));

    expect(await dialog.findByText('请确认根据你的作品生成的英文研究方向')).toBeTruthy();
    expect(dialog.getByTestId('research-dialog-draft-body').textContent).toContain(
      '已读取 1 篇作品，其中 1 篇已记为你喜欢的论文',
    );
    expect(api.requestsTo('POST', '/api/auth/research-direction/from-library/')[0]?.body).toEqual({
      file_name: 'mine.bib',
      content: bibtex,
    });
    // The fields are saved at once; the drafted summary waits for the reader.
    expect(api.requestsTo('POST', CONFIRM)[0]?.body).not.toHaveProperty('research_summary_en', drafted);
    expect(dialog.queryByTestId('research-dialog-report-name')).toBeNull();
    expect((dialog.getByTestId('research-dialog-summary-input') as HTMLTextAreaElement).value).toBe(drafted);
    await events.click(dialog.getByRole('button', { name: '保存研究方向' }));
    await dialog.findByText('研究信息已生成');
    expect(api.requestsTo('POST', CONFIRM).at(-1)?.body).toMatchObject({ research_summary_en: drafted });
  });
});

function confirmResponse(user: UserResponse): ResearchConfirmResponse {
  return { success: true, message: '研究信息已保存', user, unmapped_research_fields: [], has_vector: true };
}

function taskStatus(overrides: Partial<TaskStatusResponse>): TaskStatusResponse {
  const isDone = overrides.status === 'completed';
  return {
    task_id: 'task-42',
    status: 'processing',
    progress: isDone ? 100 : 40,
    error_message: null,
    result_data: isDone
      ? {
          name: '李华',
          email: 'li.hua(at)example.edu.cn',
          institution: '清华大学',
          position: '博士研究生',
          research_fields: ['computer-science'],
          research_summary_en: 'Molecular graph learning.',
          source: 'offline',
          model: 'offline-rules',
          notices: [],
        }
      : null,
    created_at: '2026-11-23T08:00:00.000Z',
    finished_at: isDone ? '2026-11-23T08:00:05.000Z' : null,
    ...overrides,
  };
}
