import { LIMITS, RESEARCH_DESCRIPTION_EMPTY_MESSAGE } from '@radar/shared';

/** Every text of the research-info section, the AI dialog and the first-visit guide. */
export const RESEARCH_STRINGS = {
  research: {
    title: '研究信息',
    description: '推荐论文和学术新闻时，会以这里的英文研究方向和研究领域为依据。',
    summary: '英文研究方向',
    summaryHelper: '用英文写一段研究方向概述，推荐结果与它的相似度相关。',
    fields: '研究领域',
    noFields: '尚未选择研究领域',
    selectedCount: (count: number) => `已选择 ${count} 个领域`,
    unknownFields: '以下领域不在 21 个领域之内，保存时会原样保留，点击 × 可移除：',
    generate: '生成研究信息',
    generateHint: '还没有研究信息：粘贴研究主页的文字，AI 帮你生成。',
  },

  guide: {
    title: '完善研究信息，获取个性化推荐',
    body: '科研雷达根据你的研究信息（英文研究方向和研究领域）为你推荐论文与学术新闻。只需粘贴导师或个人研究主页上的文字，AI 即可帮你生成。',
    completeNow: '立即完善',
    remindLater: '稍后提醒',
    neverRemind: '不再提醒',
  },

  dialog: {
    title: 'AI 生成研究信息',
    instructions:
      '请复制导师或你个人研究主页（实验室主页、个人主页等）上的文字，粘贴到下面的输入框中。AI 会从中提取姓名、职位、机构和研究领域，并生成英文研究方向概述。',
    inputLabel: '研究方向描述',
    inputPlaceholder: '例如：研究主页上的个人简介、研究方向、代表性论文等',
    counter: (length: number) => `${length}/${LIMITS.researchDescriptionMaxLength}`,
    emptyDescription: RESEARCH_DESCRIPTION_EMPTY_MESSAGE,
    tooLong: `研究方向描述不能超过 ${LIMITS.researchDescriptionMaxLength} 个字符`,
    tooLongNow: (count: number) =>
      `研究方向描述不能超过 ${LIMITS.researchDescriptionMaxLength} 个字符（现有 ${count} 个），请删减后再开始生成`,
    cancel: '取消',
    start: '开始生成',
    analysing: 'AI 正在分析你的研究方向',
    duration: '这可能需要 5-15 秒，请稍候',
    submitting: '正在提交…',
    saving: '分析完成，正在保存研究信息…',
    taskId: (id: string) => `任务编号：${id}`,
    restart: '重新开始',
    /** A result without an English summary: saved, but the dialog says what is missing and what to do. */
    partialTitle: '还没有英文研究方向',
    partialBody: '已识别的内容已保存。推荐论文和学术新闻需要一段英文研究方向，这次没有生成。',
    partialOffline:
      '本次由内置的离线规则分析（尚未配置 AI 模型）：它只摘取文字中已有的英文研究描述，不会把中文翻译成英文。',
    /** A glossed English draft (research_direction_origin 'offline-gloss'): shown to check, saved only by the user. */
    draftTitle: '请检查英文研究方向草稿',
    draftBody:
      '下面的英文草稿由内置规则根据中文主页逐词翻译生成（尚未配置 AI 模型），只列出了识别到的研究术语，可能有误译或遗漏。请检查并修改后保存；其余识别结果已保存。',
    draftInputHelper: '可以修改或删除术语、补充遗漏的方向，也可以改写成完整的英文句子；保存后即可获得推荐。',
    reportSummaryDraft: '已生成草稿，待你检查后保存',
    reportTitle: '本次分析结果',
    reportLabels: {
      summary: '英文研究方向',
      fields: '研究领域',
      name: '姓名',
      position: '职位',
      institution: '机构',
    },
    reportSummaryDone: '已生成',
    reportNotFound: '未生成',
    reportFieldsNotFound: '未识别（文字中没有足够依据，可在“研究信息”中手动选择）',
    reportPersonalNotFound: '文字中未找到',
    reportNotOwnPage: '未保存（主页上的邮箱不是你的账号邮箱，可能是导师的主页）',
    summaryInputLabel: '英文研究方向',
    summaryInputHelper: '用英文写一段或粘贴一段研究方向概述（可从英文主页或论文摘要中复制），保存后即可获得推荐。',
    askOperator: '也可以请管理员为科研雷达配置 AI 模型，之后重新生成，即可自动撰写英文研究方向。',
    summaryRequired: '请填写英文研究方向',
    summaryNotEnglish: '请用英文填写研究方向',
    summaryTooLong: '英文研究方向不能超过 5000 个字符',
    saveSummary: '保存研究方向',
    savingSummary: '正在保存…',
    later: '稍后填写',
    successTitle: '研究信息已生成',
    successBody: '现在你可以使用全部功能了',
    confirm: '确定',
    /** Seeding from one's own works (beyond the spec; shown only when the server offers it). */
    sources: { homepage: '粘贴主页文字', authorId: 'ORCID iD', library: '上传文献库文件' },
    sourcePicker: '研究信息的来源',
    ownWorksStage: '导入作品',
    authorIdLabel: (withOpenAlex: boolean) => (withOpenAlex ? 'ORCID iD 或 OpenAlex 作者编号' : 'ORCID iD'),
    authorIdPlaceholder: '例如：0000-0002-1825-0097',
    authorIdInstructions:
      '输入你的 ORCID iD，科研雷达会读取你近期公开的作品（最多 200 篇）：把它们记为你喜欢的论文，并根据标题和摘要生成英文研究方向草稿，由你确认后保存。',
    authorIdInvalid: 'ORCID iD 格式不正确（16 位数字，最后一位可以是 X，如 0000-0002-1825-0097）',
    libraryInstructions:
      '上传从 Zotero、EndNote 或 NoteExpress 导出的你自己的论文列表：BibTeX（.bib）、RIS（.ris）或 CSL-JSON（.json），不超过 2 MB，最多读取 200 篇。它们会记为你喜欢的论文，并用于生成英文研究方向草稿。',
    chooseFile: '选择文件',
    chosenFile: (name: string) => `已选择：${name}`,
    noFile: '尚未选择文件',
    fileTooLarge: '文件不能超过 2 MB',
    fileUnreadable: '无法读取这个文件，请重新选择',
    importing: '正在读取你的作品并生成研究方向',
    importDuration: '作品较多时可能需要一两分钟，请稍候',
    ownWorksDraftTitle: '请确认根据你的作品生成的英文研究方向',
    ownWorksDraftBody: (found: number, stored: number) =>
      `已读取 ${found} 篇作品，其中 ${stored} 篇已记为你喜欢的论文。下面的英文研究方向草稿根据作品的标题和摘要生成，请检查、修改后保存；识别到的研究领域已保存。`,
    ownWorksDraftHelper: '可以改写、补充或删减；保存后推荐会以它为依据。',
    reportOwnWorks: '根据作品生成，待你确认后保存',
  },

  /** Failures of the dialog. */
  errors: {
    emptyResult: 'AI 分析结果为空，请重试',
    processingFailed: '研究方向处理失败',
    submitFailed: '异步处理研究方向失败，请重试',
    statusFailed: '任务状态查询失败',
    timedOut: '研究方向处理超时，请重试',
    forbidden: '权限不足，请检查账号状态',
    serverError: '服务器错误，请重试',
    saveFailed: '保存失败，请重试。你可以重新使用“生成研究信息”功能或手动编辑',
  },
} as const;
