// Words: Chinese by default, a complete English mode (remembered in localStorage).
const ZH = {
  title: "武汉麻将 · 红中赖子杠", lobby: "大厅", calc: "算分器", lang: "English",
  leaderboard: "排行榜", account: "账号", rated_room: "排位（计积分）",  // players (accounts, ratings)
  rank_min: "段位下限", rank_max: "段位上限", any_rank: "不限",  // 段位 (accounts.ranks)
  ranks: ["新手", "雀士一", "雀士二", "雀士三", "雀杰一", "雀杰二", "雀杰三", "雀豪一", "雀豪二", "雀豪三", "雀圣"],
  nickname: "昵称", save: "确定", create_room: "创建房间", join_room: "加入房间", room_code: "房间号",
  preset: "玩法", rounds: "圈数", claim_seconds: "抢牌秒数", turn_seconds: "出牌秒数", options: "规则选项",
  join: "加入", spectate: "观战", open_rooms: "房间列表", no_rooms: "暂无房间", seat: "座位",
  sit: "坐下", stand: "起身", add_bot: "加机器人", remove_bot: "移除机器人", start: "开始",
  empty: "空位", bot: "机器人", host: "房主", leave: "离开", chat: "聊天", send: "发送",
  auto: "托管", auto_on: "托管中", cancel_auto: "取消托管", back: "返回", hints: "提示", replay: "回放", spectator: "观战中",
  winds: ["东", "南", "西", "北"], dealer: "庄", wall_left: "剩余 {0} 张", indicator: "翻牌", laizi: "赖子",
  your_turn: "请出牌（点两下打出）", waiting: "等待其他玩家…", match_table: "比分表", hand_no: "第 {0} 局",
  coins: "游戏币", coin_balance: "游戏币余额 {0}", coin_match: "本场游戏币 {0}",
  round_of: "第 {0}/{1} 圈", hand_of: "共 {1} 局", total: "合计", hand_over: "本局结束", match_over: "比赛结束", continue: "继续",
  next_started: "下一局已开始", back_lobby: "回大厅", back_club: "回亲友圈", drawn: "荒庄（流局）", payments: "得分",
  ready: "准备", unready: "取消准备", is_ready: "已准备", not_ready: "未准备", rematch: "再来一局", rematch_force: "房主重开",
  rematch_wait: "已同意再来一局（{0}/{1} 人已同意）", rematch_some: "再来一局（{0}/{1} 人已同意）", table_gone: "这桌已经散了（比赛结束后房间只留一会儿）：回大厅再开一桌", settle_left: "{0} 秒后开始下一局", wait_continue: "等待其他玩家继续…", need_ready: "等待所有玩家准备",
  continue_seconds: "结算等待秒数", auto_after: "超时几次托管", fixed_seed: "固定牌局种子（公开）",
  reconnecting: "连接已断开，正在重连…", connected: "已连接", conn_lost: "连接已断开", conn_lost_sub: "正在重连并同步牌局…",
  discard: "打出", tsumo: "自摸", ron: "胡", peng: "碰", chi: "吃", kong: "杠", ankong: "暗杠",
  addkong: "蓄杠", special_kong: "红中杠", laizi_kong: "赖子杠", pizi_kong: "皮子杠", fa_kong: "发财杠", pizi: "皮子", pass: "过",
  draw: "补牌", nodraw: "不补", ev_nodraw: "{0} 杠后不补牌", replace_turn: "杠后：补牌，还是不补（不用打牌）",
  haidi_kong_turn: "海底：点亮起的牌杠掉（不补牌），或者过",
  sound: "声音", voice: "语音", level: "等级", menu: "菜单",
  escape_confirm: "比赛进行中，离开将被扣逃跑分，确定吗？", copy_link: "复制链接", copied: "链接已复制",
  copy_failed: "无法复制，请手动复制：{0}", share_title: "扫码加入房间", room_rules: "{0} · {1} 圈", room_max_hands: "最多 {0} 局", room_max_hand: "最多 {0} 局",
  fairness: "公平性", fair_intro: "每局开始前服务器公布牌墙的承诺（哈希）；本局结束后公开种子，任何人都可以据此重新推导整副牌墙并核对。",
  commitment: "承诺", seed: "种子", verify: "验证本局", verify_ok: "验证通过：牌墙由种子推导，与承诺一致，翻牌为第 54 张",
  verify_bad: "验证失败：{0}", verify_wait: "种子在本局结束后公开", verify_unavailable: "此浏览器不支持验证（需要安全连接）",
  close: "关闭", win_by: { self_draw: "自摸", discard: "放冲", rob_kong: "抢杠" },
  win_line: "{0} 胡牌 · {1}", from_line: "{0} 放冲", liable: "承包", hard: "硬胡", soft: "软胡",
  small_hand: "屁胡", big_hands: "大胡", gangkai: "杠上开花", haidi: "海底捞月", topped: "封顶",
  cap_cap: "封顶", cap_golden: "金顶", cap_sunshine: "阳光顶", cap_ha: "哈顶",
  fan: "番", winner_fan: "胡家 {0} 番", claim_title: "{0} 打出", hand_result: "结算", result_title: "比赛结果",
  rank: "名次", player: "玩家", score: "分数", bot_name: "机器人", you: "你",
  chat_ph: "说点什么…", quick: "快捷语", events: "牌局记录", prev: "上一步", next: "下一步", play: "播放", pause: "暂停",
  first: "开头", last: "结尾", replay_of: "回放 · 比赛 {0}", hand_sel: "局", step: "第 {0}/{1} 步",
  install: "安装到主屏幕", shanten: "向听 {0}", waits: "听 {0} 张", recommended: "推荐",
  timer: "{0} 秒", spectators: "观众 {0}", rules: "规则", version: "版本",
  ev_start_hand: "第 {0} 局开始 · 庄家 {1} · 翻牌 {2} → 赖子 {3}", ev_discard: "{0} 打出 {1}",
  ev_draw: "{0} 摸牌", ev_draw_tile: "{0} 摸到 {1}", ev_tsumo: "{0} 自摸", ev_start_match: "比赛开始",
  ev_end_hand: "本局结束", ev_scores: "结算",
  ev_claim: "{0} {1} {2}", ev_win: "{0} 胡牌！{1} · {2}", ev_drawn: "荒庄", ev_auto_on: "{0} 托管",
  ev_auto_off: "{0} 取消托管", ev_escape: "{0} 逃跑（扣 {1} 分）", ev_end_match: "比赛结束",
  calc_title: "算分器", calc_submit: "算分", pick_hint: "点选牌加入手牌，点手牌中的牌移除", clear: "清空",
  target: "加入到", t_hand: "手牌", t_win: "胡的牌", result: "结果", ok_win: "可以胡", not_win: "不能胡",
  raw_json: "原始 JSON", load_example: "示例", win_tile: "胡的牌", by: "方式", from_seat: "放冲者座位",
  melds_lines: "副露（每行一个，如 peng 9p from 3）", spk: "杠出的红中/赖子", players_json: "其他玩家（JSON，可选）",
  after_kong: "杠上开花", by_discard: "放冲", by_self_draw: "自摸", by_rob_kong: "抢杠", seat_n: "{0}号位",
  make_host: "转让房主", kick: "踢出", wait_host: "等待房主开始", private_room: "私密房间（不列出）", kicked: "你已被房主请出房间",
  st_lobby: "等待中", st_playing: "对局中", st_finished: "已结束",
  more_options: "更多房间设置", max_hands: "局数上限", no_limit: "不限",
  rule_options: "规则选项（改过的会写进规则卡）", rule_card: "规则卡", option_sep: "：", bad_option: "数值不对：",
  template: "常用模板", no_template: "不用模板",
  share_text: "武汉麻将 房间 {0}\n规则：{1}\n{2}",
  winner_seat: "胡牌者", remove: "移除", spk_short: "杠出", meld_type: "副露类型", meld_hint: "选好类型和来源后点下方的牌", melds: "副露",
  reason_not_a_win: "不成胡牌型", reason_holds_special: "手里还有红中", reason_not_open: "没有开口", reason_two_laizi_small: "两个赖子不能胡屁胡",
  reason_pair_not_258: "将不是二五八", reason_jianzi_on_discard: "见字胡不能胡别人打的牌", reason_below_minimum: "番数不够起胡",
  tiles_title: "牌面", tiles_intro: "每张牌都是本项目绘制的 SVG，不依赖中文字体。带金边和星标的是赖子。",
  lobby_hint: "输入昵称，创建房间或加入朋友的房间。", fixed_deal: "固定牌局（种子 {0}）：牌墙由房间设置决定", fixed_deal_short: "固定牌局 {0}",
  tournaments_btn: "比赛", clubs_btn: "亲友圈", lobby_menu: "大厅",
  review: "复盘", accuracy: "准确率", review_busy: "复盘中… {0}%", review_wait: "复盘的人多，稍后自动再试…", review_failed: "复盘失败",
  review_acc: "准确率 {0}% · 平均每步少 {1} 分 · 与专家一致 {2}% · 共 {3} 个决定", review_none: "没有明显失误",
  review_item: "第 {0} 局 · {1} → 专家 {2} · −{3} 分", review_auto: "（托管代打 {0} 步，不计）", review_unrated: "（{0} 步无法评估，不计）",
  review_unfold: "展开", review_fold: "收起",
  card_hand: "晒大胡", card_hand_title: "武汉麻将 · 大胡", card_hand_of: "比赛 #{0} · 第 {1} 局", card_no_big: "胡牌",
  card: "战绩", card_title: "武汉麻将 · 战绩", card_match: "比赛 #{0} · 共 {1} 局", card_match_one: "比赛 #{0} · 共 {1} 局", card_download: "下载图片",
  card_share: "分享链接", card_copied: "链接已复制", card_copy_hint: "请复制上面的链接", card_failed: "无法生成战绩",
  dissolve: "申请解散", dissolve_sure: "确定解散？", dissolve_vote: "解散投票：{0}/{1} 人同意", dissolve_agree: "同意解散",  // clubs
  dissolve_refuse: "拒绝", dissolved: "牌局已解散：已打完的局分数保留", dissolve_refused: "{0} 拒绝解散",  // clubs
  ev_dissolved: "解散：本局不计分", dissolved_hand: "牌局解散（本局不计分）",  // clubs
  mute: "屏蔽", unmute: "取消屏蔽", muted_note: "已屏蔽 {0} 的聊天", report: "举报", report_reason: "举报原因",  // clubs
  report_abuse: "辱骂", report_cheating: "作弊", report_spam: "刷屏", report_other: "其他", report_ph: "补充说明（最多 200 字）",  // clubs
  report_send: "提交举报", report_done: "已举报：圈主和管理员会看到", report_failed: "举报没有成功：{0}",  // clubs
  ip_warning_room: "开局前提醒同一网络的玩家", start_anyway: "仍然开始", net_address: "同一地址", net_network: "同一网段",  // clubs
  netwarn_line: "{0} 与 {1}：{2}", netwarn_head: "注意：这些玩家从同一网络连接，可能是同一伙人。", netwarn_unknown: "（{0} 的地址未知，没有比较）",  // clubs
  lv_novice: "新手场", lv_junior: "初级场", lv_senior: "高级场", coin_stake: "{0} · 底注 {1}", coin_free: "{0} · 不计游戏币",  // polish: 场次 on the table
  // 番 on the table (issue 23, js/fan.js)
  ting: "听", seat_fan: "{0}番·{1}", seat_fan_n: "{0}番", st_sunshine: "阳光", st_golden: "金顶", fan_of: "{0}：{1} 番", n_fan: "{0} 番",
  no_fan_yet: "还没有番（没开口、没杠）", st_sunshine_help: "阳光：还没开口。输牌时按阳光算（封顶时付阳光顶，对罚时加倍）。",
  st_golden_help: "已开口：三家都到封顶时付金顶。", points: "{0}分", enough_fan: "够番", short_fan: "不够番",
  howto: "玩法说明", tutorial_link: "新手教程：打第一手牌 →", breakdown: "算分明细", waits_title: "听牌和番数", unseen_n: "还剩 {0} 张", by_discard_worst: "别人放冲（最少）",
};
const EN = {
  title: "Wuhan Mahjong · Red Dragon Laizi", lobby: "Lobby", calc: "Calculator", lang: "中文",
  leaderboard: "Leaderboard", account: "Account", rated_room: "Rated (ratings change)",  // players
  rank_min: "Lowest tier", rank_max: "Highest tier", any_rank: "any",
  ranks: ["Novice", "Adept I", "Adept II", "Adept III", "Expert I", "Expert II", "Expert III",
    "Master I", "Master II", "Master III", "Saint"],
  nickname: "Nickname", save: "OK", create_room: "Create room", join_room: "Join room", room_code: "Room code",
  preset: "Rules", rounds: "Rounds", claim_seconds: "Claim seconds", turn_seconds: "Turn seconds", options: "Rule options",
  join: "Join", spectate: "Watch", open_rooms: "Rooms", no_rooms: "No rooms yet", seat: "Seat",
  sit: "Sit", stand: "Stand up", add_bot: "Add bot", remove_bot: "Remove bot", start: "Start",
  empty: "empty", bot: "bot", host: "host", leave: "Leave", chat: "Chat", send: "Send",
  auto: "Auto-play", auto_on: "Auto-playing", cancel_auto: "Stop auto-play", back: "Back", hints: "Hints", replay: "Replay", spectator: "Watching",
  winds: ["East", "South", "West", "North"], dealer: "Dealer", wall_left: "{0} tiles left", indicator: "Indicator", laizi: "Laizi",
  your_turn: "Your turn (tap a tile twice)", waiting: "Waiting for others…", match_table: "Match table", hand_no: "Hand {0}",
  coins: "Coins", coin_balance: "Coin balance {0}", coin_match: "Coins this match {0}",
  round_of: "Round {0}/{1}", hand_of: "{1}-hand match", total: "Total", hand_over: "Hand over", match_over: "Match over", continue: "Continue",
  next_started: "The next hand has started", back_lobby: "Back to lobby", back_club: "Back to the club", drawn: "Drawn hand (wall exhausted)", payments: "Payments",
  ready: "I'm in", unready: "Not yet", is_ready: "in", not_ready: "not in yet", rematch: "Rematch", rematch_force: "Restart now",
  rematch_wait: "You accepted a rematch ({0}/{1} accepted)", rematch_some: "Rematch ({0}/{1} accepted)", table_gone: "This table has closed (a room stays only a while after its match): start a new one from the lobby", settle_left: "Next hand in {0}s", wait_continue: "Waiting for the others…", need_ready: "Waiting for everyone to be in",
  continue_seconds: "Settlement seconds", auto_after: "Lapses before auto-play", fixed_seed: "Fixed deal seed (public)",
  reconnecting: "Disconnected, reconnecting…", connected: "Connected", conn_lost: "Connection lost", conn_lost_sub: "Reconnecting and resyncing the table…",
  discard: "Discard", tsumo: "Self-draw", ron: "Win", peng: "Pung", chi: "Chow", kong: "Kong", ankong: "Concealed kong",
  addkong: "Added kong", special_kong: "Red Dragon kong", laizi_kong: "Laizi kong", pizi_kong: "Pizi kong", fa_kong: "Green Dragon kong", pizi: "Pizi", pass: "Pass",
  draw: "Draw replacement", nodraw: "No replacement", ev_nodraw: "{0} takes no replacement",
  replace_turn: "After your kong: draw the replacement, or not (and discard nothing)",
  haidi_kong_turn: "Haidi: tap a lit tile to kong it (no replacement), or pass",
  sound: "Sound", voice: "Voice", level: "Level", menu: "Menu",
  escape_confirm: "The match is running: leaving charges the escape penalty. Leave?", copy_link: "Copy link", copied: "Link copied",
  copy_failed: "Could not copy, copy it by hand: {0}", share_title: "Scan to join the room", room_rules: "{0} · {1} round(s)", room_max_hands: "at most {0} hands", room_max_hand: "at most {0} hand",
  fairness: "Fairness", fair_intro: "Before each hand the server publishes a commitment (hash) to the wall; after the hand it reveals the seed, from which anyone can re-derive the whole wall and check it.",
  commitment: "Commitment", seed: "Seed", verify: "Verify this hand", verify_ok: "Verified: the wall derives from the seed, matches the commitment, and the indicator is tile 54",
  verify_bad: "Verification failed: {0}", verify_wait: "The seed is revealed when the hand ends", verify_unavailable: "This browser cannot verify (needs a secure context)",
  close: "Close", win_by: { self_draw: "self-draw", discard: "deal-in", rob_kong: "robbing a kong" },
  win_line: "{0} wins · {1}", from_line: "deal-in by {0}", liable: "Liable", hard: "hard win", soft: "soft win",
  small_hand: "small hand", big_hands: "Big hands", gangkai: "win after a kong", haidi: "last tile", topped: "capped",
  cap_cap: "capped", cap_golden: "golden cap", cap_sunshine: "sunshine cap", cap_ha: "ha cap",
  fan: "fan", winner_fan: "winner {0} fan", claim_title: "{0} discarded", hand_result: "Settlement", result_title: "Match result",
  rank: "Rank", player: "Player", score: "Score", bot_name: "Bot", you: "you",
  chat_ph: "Say something…", quick: "Quick phrases", events: "Game log", prev: "Back", next: "Step", play: "Play", pause: "Pause",
  first: "Start", last: "End", replay_of: "Replay · match {0}", hand_sel: "Hand", step: "step {0}/{1}",
  install: "Install", shanten: "{0} from ready", waits: "{0} tiles wait", recommended: "recommended",
  timer: "{0}s", spectators: "{0} watching", rules: "Rules", version: "version",
  ev_start_hand: "Hand {0} · dealer {1} · indicator {2} → laizi {3}", ev_discard: "{0} discards {1}",
  ev_draw: "{0} draws", ev_draw_tile: "{0} draws {1}", ev_tsumo: "{0} self-draws", ev_start_match: "The match begins",
  ev_end_hand: "Hand over", ev_scores: "Settlement",
  ev_claim: "{0}: {1} {2}", ev_win: "{0} wins! {1} · {2}", ev_drawn: "Drawn hand", ev_auto_on: "{0} auto-play on",
  ev_auto_off: "{0} auto-play off", ev_escape: "{0} left the match (-{1})", ev_end_match: "Match over",
  calc_title: "Score calculator", calc_submit: "Score", pick_hint: "Tap tiles to add them; tap a tile in the hand to remove it", clear: "Clear",
  target: "Add to", t_hand: "Hand", t_win: "Winning tile", result: "Result", ok_win: "Valid win", not_win: "Not a win",
  raw_json: "Raw JSON", load_example: "Example", win_tile: "Winning tile", by: "By", from_seat: "Deal-in seat",
  melds_lines: "Melds (one per line, e.g. peng 9p from 3)", spk: "Red Dragon and laizi kongs laid aside", players_json: "Other players (JSON, optional)",
  after_kong: "After a kong", by_discard: "deal-in", by_self_draw: "self-draw", by_rob_kong: "robbing a kong", seat_n: "seat {0}",
  make_host: "Make host", kick: "Kick", wait_host: "Waiting for the host", private_room: "Private room (not listed)", kicked: "The host removed you from the room",
  st_lobby: "waiting", st_playing: "playing", st_finished: "finished",
  more_options: "More room settings", max_hands: "Max hands", no_limit: "none",
  rule_options: "Rule options (changes go on the rule card)", rule_card: "Rule card", option_sep: ": ", bad_option: "Not a valid number: ",
  template: "Template", no_template: "none",
  share_text: "Wuhan Mahjong room {0}\nRules: {1}\n{2}",
  winner_seat: "Winner", remove: "Remove", spk_short: "Laid-aside kongs", meld_type: "Meld type", meld_hint: "Pick the type and the seat it came from, then tap a tile below", melds: "Melds",
  reason_not_a_win: "not a winning shape", reason_holds_special: "still holds a Red Dragon", reason_not_open: "the hand is not open", reason_two_laizi_small: "two laizi cannot win a small hand",
  reason_pair_not_258: "the pair is not 2, 5 or 8", reason_jianzi_on_discard: "this wait cannot win on a discard", reason_below_minimum: "below the minimum",
  tiles_title: "Tiles", tiles_intro: "Every face is an SVG drawn by this project: no CJK font needed. The laizi carries a gold border and a star.",
  lobby_hint: "Pick a nickname, create a room or join a friend's.", fixed_deal: "Fixed deal (seed {0}): the room settings decide the wall", fixed_deal_short: "Fixed deal {0}",
  tournaments_btn: "Tournaments", clubs_btn: "Clubs", lobby_menu: "Lobby",
  review: "Review", accuracy: "Accuracy", review_busy: "Reviewing… {0}%", review_wait: "Many reviews at the moment: trying again shortly…", review_failed: "The review failed",
  review_acc: "Accuracy {0}% · {1} points lost per decision · agrees with expert {2}% · {3} decisions",
  review_none: "No costly decision", review_item: "Hand {0} · {1} → expert {2} · −{3}",
  review_auto: " ({0} auto-played decisions left out)", review_unrated: " ({0} decisions the model cannot rate, left out)",
  review_unfold: "Show", review_fold: "Hide",
  card_hand: "Share this hand", card_hand_title: "Wuhan Mahjong · Big hand", card_hand_of: "Match #{0} · hand {1}", card_no_big: "Win",
  card: "Result card", card_title: "Wuhan Mahjong · Result", card_match: "Match #{0} · {1} hands", card_match_one: "Match #{0} · {1} hand", card_download: "Download",
  card_share: "Share link", card_copied: "Link copied", card_copy_hint: "Copy the link above", card_failed: "No card for this match",
  dissolve: "Propose to end", dissolve_sure: "Tap again to end", dissolve_vote: "End the match: {0}/{1} agree", dissolve_agree: "Agree",  // clubs
  dissolve_refuse: "Refuse", dissolved: "Match ended by vote: finished hands keep their scores", dissolve_refused: "{0} refused to end",  // clubs
  ev_dissolved: "Ended by vote: this hand does not count", dissolved_hand: "Match ended by vote (this hand does not count)",  // clubs
  mute: "Mute", unmute: "Unmute", muted_note: "{0} is muted", report: "Report", report_reason: "Reason",  // clubs
  report_abuse: "Abuse", report_cheating: "Cheating", report_spam: "Spam", report_other: "Other", report_ph: "A few words (200 characters at most)",  // clubs
  report_send: "Send the report", report_done: "Reported: the club's staff and the admins will see it", report_failed: "The report did not go through: {0}",  // clubs
  ip_warning_room: "Warn before the start about players on one network", start_anyway: "Start anyway", net_address: "the same address", net_network: "the same network",  // clubs
  netwarn_line: "{0} and {1}: {2}", netwarn_head: "Careful: these players connect from one network and may play together.", netwarn_unknown: " ({0}: address unknown, not compared)",  // clubs
  lv_novice: "Beginner", lv_junior: "Junior", lv_senior: "Senior", coin_stake: "{0} · stake {1}", coin_free: "{0} · no coins",  // polish
  // fan on the table (issue 23, js/fan.js)
  ting: "Ready:", seat_fan: "{0} fan · {1}", seat_fan_n: "{0} fan", st_sunshine: "unopened", st_golden: "opened", fan_of: "{0}: {1} fan", n_fan: "{0} fan",
  no_fan_yet: "No fan yet (not opened, no kong)", st_sunshine_help: "Unopened (sunshine): if it loses, it pays as unopened (the sunshine cap; double with double pay).",
  st_golden_help: "Opened: when all three reach the cap it pays the golden cap.", points: "{0} pts", enough_fan: "enough", short_fan: "below minimum",
  howto: "How to play", tutorial_link: "Tutorial: play your first hand →", breakdown: "How it is scored", waits_title: "Waits and their points", unseen_n: "{0} unseen", by_discard_worst: "Deal-in (least)",
};
const BIG = {
  zh: { pengpeng: "碰碰胡", qingyise: "清一色", fengyise: "风一色", jiangyise: "将一色", quanqiuren: "全求人",
    gangkai: "杠上开花", qianggang: "抢杠", haidi: "海底捞月", menqing: "门前清", qidui: "七对" },
  en: { pengpeng: "all pungs", qingyise: "full flush", fengyise: "all honours", jiangyise: "all 2-5-8", quanqiuren: "all melded",
    gangkai: "win after a kong", qianggang: "robbing a kong", haidi: "last tile", menqing: "concealed hand", qidui: "seven pairs" },
};
const PRESETS = {
  zh: { kaikoufan: "开口番", kaikoufan_fa: "开口番·红中发财杠", qipisilai: "七皮四赖", koukoufan: "口口番", jiayu: "嘉鱼红中赖子杠" },
  en: { kaikoufan: "open-fan", kaikoufan_fa: "open-fan, Red and Green Dragon kongs", qipisilai: "seven pizi, four laizi",
    koukoufan: "every-meld fan", jiayu: "Jiayu rules" },
};
// Bot levels (the protocol's ids) and the names bots go by at a table: distinct, 机器人甲/乙/丙
// by their order among the table's bots (issue 21: three "机器人·strong" could not be told apart).
const BOT_LEVELS = {
  zh: { random: "入门", greedy: "普通", strong: "高手", expert: "专家" },
  en: { random: "beginner", greedy: "casual", strong: "strong", expert: "expert" },
};
const BOT_LETTERS = { zh: "甲乙丙丁", en: "ABCD" };
// Server error codes (protocol ``error`` frames) in words; the server's own message is English
// and for logs only.
const ERRORS = {
  zh: {
    no_room: "请先加入房间", not_in_room: "你不在这个房间里", unknown_room: "没有这个房间", room_finished: "这个房间的比赛已结束",
    room_closed: "房间已关闭", room_moved: "房间已转移，正在重新连接", match_over: "比赛已结束", match_started: "比赛已经开始",
    not_started: "比赛还没开始", not_finished: "比赛还没结束", between_hands: "两局之间，请稍候", not_between_hands: "现在不是两局之间",
    seat_taken: "这个座位已有人", not_seated: "你还没有坐下", seats_empty: "还有空位", not_ready: "还有玩家没有准备",
    not_host: "只有房主可以这样做", no_bot: "这个座位没有机器人", bad_bot: "没有这个机器人等级", bad_kick: "不能请出这位玩家",
    not_your_turn: "还没轮到你", illegal_action: "现在不能这样出牌", bad_action: "无效的操作", stale_version: "牌局已更新，请重试",
    stale_seq: "这一步已经处理过了", busy: "服务器正忙，请稍后再试", rate_limited: "操作太频繁，请慢一点",
    chat_rate: "发言太频繁，请稍候", chat_too_long: "消息太长", bad_chat: "无法发送这条消息", bad_phrase: "没有这条快捷语",
    bad_nickname: "昵称不可用", bad_settings: "房间设置有误", escaped: "你已离开这场比赛", escape: "离开比赛将被扣分",
    kicked: "你已被房主请出房间", identity_locked: "连接的身份已确定", too_many_connections: "连接太多，请关闭其他页面", old_client: "页面版本过旧，请刷新页面",
    hello_timeout: "连接超时", hello_first: "连接尚未就绪", bad_json: "消息格式有误", bad_frame: "消息格式有误",
    bad_message: "消息格式有误", frame_too_large: "消息太长", unknown_type: "不支持的消息", bad_journal: "牌局记录有误",
    session_ended: "登录已失效（已退出、改了密码或账号有变），请重新登录", rematch_refused: "无法再来一局：有玩家游戏币不足或已在别的桌",
    quick_refused: "没能入座：你已在别的游戏币桌上，或游戏币不足", too_many_bot_rooms: "同一地址最多同时开 3 桌纯机器人对局",
    too_many_rooms: "开房太频繁，请稍候", too_many_joins: "进房太频繁，请稍候", too_many_guests: "新游客太多，请稍候",
    rank_out_of_range: "你的段位不在这桌的范围内（可以观战）",
    not_playing: "只能在对局中申请解散", club_only: "这是亲友圈的牌桌：只有圈内成员可以进入", watch_withheld: "复式比赛的这一轮还在进行：各桌牌墙相同，这一轮结束后才能观战",  // clubs
    bad_mute: "不能屏蔽这位玩家", too_many_mutes: "最多屏蔽 100 位玩家，请先取消一些",  // clubs
    cooldown: "你频繁离座：5 分钟内离座 5 次后要等一会儿才能再入座（可以观战）",  // clubs
    same_network: "有玩家从同一网络连接：看清提醒后可以仍然开始",  // clubs
    bad_emote: "没有这个表情", server_full: "服务器已满，请稍后再试",
    _other: "操作没有成功",
  },
  en: {
    no_room: "Join a room first", not_in_room: "You are not in this room", unknown_room: "No such room", room_finished: "This room's match is over",
    room_closed: "The room is closed", room_moved: "The room moved, reconnecting", match_over: "The match is over", match_started: "The match has started",
    not_started: "The match has not started", not_finished: "The match is not over", between_hands: "Between hands, one moment", not_between_hands: "Not between hands",
    seat_taken: "That seat is taken", not_seated: "Take a seat first", seats_empty: "Some seats are empty", not_ready: "Someone is not in yet",
    not_host: "Only the host can do that", no_bot: "No bot on that seat", bad_bot: "No such bot level", bad_kick: "That player cannot be removed",
    not_your_turn: "Not your turn yet", illegal_action: "That move is not allowed now", bad_action: "Invalid move", stale_version: "The table moved on, try again",
    stale_seq: "That move was already handled", busy: "The server is busy, try again", rate_limited: "Too many messages, slow down",
    chat_rate: "Chatting too fast, wait a moment", chat_too_long: "Message too long", bad_chat: "That message cannot be sent", bad_phrase: "No such quick phrase",
    bad_nickname: "That nickname cannot be used", bad_settings: "Invalid room settings", escaped: "You left this match", escape: "Leaving the match costs points",
    kicked: "The host removed you from the room", identity_locked: "This connection's identity is set", too_many_connections: "Too many connections: close other tabs", old_client: "This page is out of date: reload it",
    hello_timeout: "Connection timed out", hello_first: "Still connecting — try again in a moment", bad_json: "Malformed message", bad_frame: "Malformed message",
    bad_message: "Malformed message", frame_too_large: "Message too long", unknown_type: "Unsupported message", bad_journal: "Bad game record",
    session_ended: "Your session ended (logged out, new password or the account changed): sign in again",
    rematch_refused: "No rematch: a player lacks coins or sits at another coin table",
    quick_refused: "Not seated: you sit at another coin table, or lack coins", too_many_bot_rooms: "At most 3 bot-only tables at a time from one address",
    too_many_rooms: "Creating rooms too fast, wait a moment", too_many_joins: "Joining too fast, wait a moment", too_many_guests: "Too many new guests, wait a moment",
    rank_out_of_range: "Your tier is outside this table's range (you may watch)",
    not_playing: "A match can be ended by vote only while it is played", club_only: "This is a club's table: its members only", watch_withheld: "A round of a duplicate tournament in play: every table has the same walls, so it can be watched when the round is over",  // clubs
    bad_mute: "That player cannot be muted", too_many_mutes: "At most 100 muted players: unmute some first",  // clubs
    cooldown: "You left 5 seats in 5 minutes: wait a little before you sit again (you may watch)",  // clubs
    same_network: "Players connect from one network: read the warning, then you may start anyway",  // clubs
    bad_emote: "No such emote", server_full: "The server is full: try again later",
    _other: "That did not work",
  },
};
const DICT = { zh: ZH, en: EN };
const NUM_CN = "一二三四五六七八九";
const SUIT_CN = { m: "万", p: "筒", s: "条" };
const HONOR_CN = ["东", "南", "西", "北", "白", "发", "中"];  // TABLE.md's words: 东 南 西 北 中 发 白
const SUIT_EN = { m: "Characters", p: "Dots", s: "Bamboo" };
const SUIT_EN_ONE = { m: "Character", p: "Dot", s: "Bamboo" };  // "1 Character", not "1 Characters"
const SUIT_EN_SHORT = { m: "Char", p: "Dot", s: "Bam" };  // tileShort
const HONOR_EN = ["East", "South", "West", "North", "White Dragon", "Green Dragon", "Red Dragon"];
const HONOR_EN_SHORT = ["East", "South", "West", "North", "White", "Green", "Red"];  // tileShort

// this module's state, in one place (tests/test_architecture.py: no module-level let)
const ST = { lang: "zh", pizi: [] };
try { ST.lang = localStorage.getItem("laizi.lang") === "en" ? "en" : "zh"; } catch (e) { /* private mode */ }
const listeners = [];

export function getLang() { return ST.lang; }
export function onLang(fn) { listeners.push(fn); }
export function setLang(l) {
  ST.lang = l === "en" ? "en" : "zh";
  try { localStorage.setItem("laizi.lang", ST.lang); } catch (e) { /* ignore */ }
  document.documentElement.lang = ST.lang === "zh" ? "zh-CN" : "en";
  applyI18n();
  for (const fn of listeners) fn(ST.lang);
}
export function toggleLang() { setLang(ST.lang === "zh" ? "en" : "zh"); }

/** The word's placeholders {0}, {1}… replaced by args (the one placeholder style). */
function fill(s, args) {
  return typeof s === "string" ? s.replace(/\{(\d)\}/g, (_, i) => String(args[+i] ?? "")) : s;
}

/** The word for a key in the current language; {0}, {1}… replaced by args. */
export function t(key, ...args) {
  let s = DICT[ST.lang][key];
  if (s === undefined) s = ZH[key] ?? key;
  return fill(s, args);
}

/** A page's or panel's own words, `{zh: {…}, en: {…}}`, read like t(): the current
 * language, else Chinese, else the key; {0}, {1}… replaced by args. */
export function wordPack(pack) {
  return (key, ...args) => fill(pack[ST.lang]?.[key] ?? pack.zh[key] ?? key, args);
}

export function applyI18n(root = document) {
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll("[data-i18n-ph]")) e.placeholder = t(e.dataset.i18nPh);
  for (const e of root.querySelectorAll("[data-i18n-label]")) e.setAttribute("aria-label", t(e.dataset.i18nLabel));
  for (const e of root.querySelectorAll("[data-i18n-title]")) e.title = t(e.dataset.i18nTitle);
}

export function tileName(code) {
  if (!code) return ST.lang === "zh" ? "牌背" : "tile back";
  const n = +code[0], s = code[1];
  if (s === "z") return ST.lang === "zh" ? HONOR_CN[n - 1] : HONOR_EN[n - 1];
  return ST.lang === "zh" ? `${NUM_CN[n - 1]}${SUIT_CN[s]}` : `${n} ${(n === 1 ? SUIT_EN_ONE : SUIT_EN)[s]}`;
}

/** A tile's name where room is short (the 听 line on a phone held sideways): in English "8 Char",
 *  "5 Bam", "3 Dot", "Red" (the dragons without "Dragon"); in Chinese its name (二字). */
export function tileShort(code) {
  if (ST.lang === "zh" || !code) return tileName(code);
  if (code[1] === "z") return HONOR_EN_SHORT[+code[0] - 1];
  return `${code[0]} ${SUIT_EN_SHORT[code[1]]}`;
}

/** 吃 五六七条 / Chow 5-6-7 Bamboo (chi tiles name the lowest tile of the run). */
export function runName(low) {
  const n = +low[0], s = low[1];
  if (ST.lang === "zh") return `${NUM_CN[n - 1]}${NUM_CN[n]}${NUM_CN[n + 1]}${SUIT_CN[s]}`;
  return `${n}-${n + 1}-${n + 2} ${SUIT_EN[s]}`;
}

/** The 皮子 of the hand on the table (the view's ``pizi``: 七皮四赖, else none): the words of a
 *  special kong and the tiles' 皮 mark follow it (main.js and the replay set it per view). */
export function setPizi(list) { ST.pizi = Array.isArray(list) ? list.slice() : []; }
export function piziList() { return ST.pizi; }

/** The word of a kong event or action: a special kong by its tile — 皮子杠 for a 皮子 (``pizi``:
 *  the hand's, else the table's), 红中杠 for 中, 发财杠 for 发; any other special tile can only be
 *  a 皮子 (the scorer's names, scoring/tablefan.py). */
export function kongWord(type, tile, pizi = ST.pizi) {
  if (type !== "special_kong") return t(type);
  if (tile && (pizi || []).includes(tile)) return t("pizi_kong");
  if (tile === "7z" || !tile) return t("special_kong");
  return t(tile === "6z" ? "fa_kong" : "pizi_kong");
}

export function actionLabel(a) {
  if (a.type === "chi") return `${t("chi")} ${runName(a.tile)}`;
  if (a.type === "pass" || a.type === "tsumo" || a.type === "ron") return t(a.type);
  if (a.type === "discard") return `${t("discard")} ${tileName(a.tile)}`;
  const word = kongWord(a.type, a.tile);
  // 红中杠 and 发财杠 name their tile already (it said "Red Dragon kong Red Dragon")
  if (!a.tile || word === t("special_kong") || word === t("fa_kong")) return word;
  return `${word} ${tileName(a.tile)}`;
}

/** The wind of a seat: the dealer is 东, the others follow counter-clockwise. */
export function windOf(seat, dealer) { return t("winds")[(seat - (dealer || 0) + 4) % 4]; }
export function bigHandName(id) { return BIG[ST.lang][id] || id; }
export function presetName(id) { return PRESETS[ST.lang][id] || id; }
export function winBy(by) { return (t("win_by") || {})[by] || by; }
export function botLevelName(level) { return BOT_LEVELS[ST.lang][level] || level; }

/** The name of the bot on seat s of a table (seats: the room's seats): 机器人甲/乙/丙/丁 by its
 *  order among the table's bots (a seat a player escaped from keeps the player's name). */
export function botName(seats, s) {
  // a bot the server named (a tournament's entrant: 机器人甲…) keeps its name everywhere
  const own = seats && seats[s] && seats[s].nickname;
  if (own && own.startsWith("机器人")) {
    const i = "甲乙丙丁戊己庚辛壬癸".indexOf(own.slice(3));
    return ST.lang === "zh" ? own : `Bot ${i >= 0 && own.length === 4 ? "ABCDEFGHIJ"[i] : own.slice(3)}`;
  }
  let k = 0;
  for (let i = 0; i < s; i++) if (seats && seats[i] && seats[i].bot && !seats[i].player_id) k++;
  const letter = BOT_LETTERS[ST.lang][Math.min(k, 3)];
  return ST.lang === "zh" ? `${t("bot_name")}${letter}` : `${t("bot_name")} ${letter}`;
}

// The HTTP API's refusals a player meets (``code`` and ``params`` of its error answer,
// laizi.server.common.errors.ApiError): in Chinese here; in English the server's own message.
// tests/web/test_api_errors.py keeps this table and the server's codes in step.
const API_ERRORS = {
  unknown_match: "没有这场对局的记录（链接可能有误）", unknown_hand: "这场对局没有这一局",
  unknown_tournament: "没有这个比赛", unknown_player: "没有这位玩家",
  not_logged_in: "还没有登录，或登录已过期：请重新登录", token_refused: "登录已过期或无效：请重新登录",
  guest_token_stale: "游客身份已过期：不带它注册一个新玩家",
  coins_guest: "游客没有游戏币：注册后每天可领取", topup_claimed: "今天已经领取过了，明天再来",
  friends_guest: "注册后才能加好友", no_registered_player: "没有叫「{name}」的注册玩家",
  friend_requests_rate: "每小时最多发 {max} 个好友申请：请 {wait} 秒后再试", befriend_self: "不能加自己为好友",
  not_friends: "你们还不是好友", invite_friends_only: "只能邀请好友",
  invites_rate: "每分钟最多邀请 {max} 次：请 {wait} 秒后再试",
  quick_registered_only: "{level}仅限注册玩家（游客可以玩新手场）",
  quick_needs_coins: "{level}需要 {min} 游戏币，你有 {have}（可以每日领取）",
  quick_busy: "你正在房间 {room} 对局：先打完或离开那一局", quick_connect: "还在连接服务器，请稍后再试",
  clubs_guest: "亲友圈仅限注册玩家：请先注册", no_club: "没有这个亲友圈",
  club_full: "亲友圈已满（最多 {max} 人）", club_private: "这是私密亲友圈，仅成员可见",
  club_member_already: "你已经是这个亲友圈的成员", club_request_waiting: "你的申请正在等待圈主审核",
  club_no_invitation: "你没有收到这个亲友圈的邀请", club_not_member: "你不在这个亲友圈里",
  username_length: "用户名须为 {min}–{max} 个字符", username_chars: "用户名只能包含字母、数字和 _ - .",
  password_short: "密码太短：至少 {min} 个字符", password_long: "密码太长：最多 {max} 个字符",
  password_repeated: "密码太弱：只是一个字符重复", password_common: "密码太弱：这是最常见的密码之一",
  password_is_username: "密码太弱：和用户名一样", rate_limited: "操作太频繁：请 {wait} 秒后再试",
  registered_already: "这个玩家已经注册过了，请直接登录", username_taken: "用户名「{name}」已被占用",
  wrong_login: "用户名或密码错误", wrong_password: "当前密码不对",
  image_unreadable: "读不出这张图片（请用 PNG、JPEG、WebP 或 GIF）", image_type: "不支持这种图片格式：请用 PNG、JPEG、WebP 或 GIF",
  image_empty: "图片是空的", image_too_large: "图片太大：最多 {max_kb} KB", image_pixels: "图片像素太多", image_size: "图片太大：每边最多 {max} 像素",
  replay_withheld: "复式比赛这一轮还在进行：各桌打的是同一副牌墙，本轮结束后才能看回放",
  server_busy: "服务器正忙：请稍后再试", match_in_play: "这场对局还在进行：打完后才能复盘、看战绩",
  hand_not_over: "这一局还没打完：打完后才能晒", hand_not_won: "这一局没有人胡牌（荒庄或解散）：没有可晒的牌",
  review_failed: "复盘失败：这场对局的记录读不出来",
  bad_rules: "这套规则读不出来",
  tournaments_per_day: "每人每天最多创建 {max} 场比赛：明天再来",
  season_empty: "这个赛季还没有开过桌：不用开始新赛季",  // (玩法说明 names the option in its own words)
  // the score calculator: a table that cannot exist (laizi.scoring.request; params.tile / seat in words)
  score_tile_count: "胡牌者的牌共 {n} 张，应为 14 张（手牌不算胡的那张，杠算 3 张）",
  score_copies: "桌上有 {n} 张{tile}：每种牌最多 4 张", score_from_winner: "放冲的一家不能是胡牌者自己",
  score_from_needed: "请选放冲（或被抢杠）的一家", score_from_self_draw: "自摸没有放冲的一家",
  score_no_kong: "杠上开花：胡牌者没有杠", score_gangkai_haidi: "杠上开花和海底捞月不能同时选",
  score_only_self_draw: "只有自摸才有杠上开花、海底捞月", score_win_laizi: "打出的赖子不能胡",
  score_win_special: "红中、皮子打出后不能被胡", score_meld_self: "副露不能取自己的牌",
  score_chi_upstream: "只能吃上家（{seat}）的牌", score_meld_special: "红中、皮子和赖子不能吃、碰、杠",
  score_not_special: "{tile}不是红中、皮子或赖子，不能算杠出的牌", score_laizi_discard: "这套规则不许打出赖子",
  score_no_peng_to_rob: "{seat}没有碰{tile}，无杠可抢",
  report_words_long: "举报的话最多 {max} 个字", report_self: "不能举报自己",
  report_not_there: "你不在那一桌", report_they_not_there: "这位玩家不在那一桌",
  report_rate: "每小时最多举报 {max} 次：请稍后再试", report_again: "你已经在这一桌举报过这位玩家",
};

// In English the server's messages serve, except the score calculator's: the scorer's own
// (``win.from: names the winner``) name a field of the JSON request, not what the page shows.
const API_ERRORS_EN = {
  score_tile_count: "The winner has {n} tiles; a winning hand has 14 (the hand without the winning tile, a kong counts 3)",
  score_copies: "{n} × {tile} on the table: there are only 4 of each tile",
  score_from_winner: "The discarder cannot be the winner",
  score_from_needed: "Choose who discarded the tile (or whose kong was robbed)",
  score_from_self_draw: "A self-drawn win has no discarder",
  score_no_kong: "Win after a kong: the winner has no kong",
  score_gangkai_haidi: "Win after a kong and last-tile win cannot both be chosen",
  score_only_self_draw: "Win after a kong and last-tile win are self-drawn only",
  score_win_laizi: "A discarded laizi cannot be won on",
  score_win_special: "Red dragons and pizi, once discarded, cannot be won on",
  score_meld_self: "A meld cannot take one's own tile",
  score_chi_upstream: "A chow takes only from the player on the left ({seat})",
  score_meld_special: "Red dragons, pizi and the laizi cannot be chowed, ponged or konged",
  score_not_special: "{tile} is not a red dragon, pizi or the laizi: it is no kong-discard",
  score_laizi_discard: "These rules forbid discarding the laizi",
  score_no_peng_to_rob: "{seat} has no pong of {tile}: no kong to rob",
};

/** An HTTP API refusal in the page's language: its code's words in Chinese (with its params),
 *  else the socket's words for the same code, else the server's message (in English, the score
 *  calculator's codes have words of their own). */
export function apiErrorText(code, params, message) {
  const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  // (a socket's code an HTTP answer shares, such as the guest's rate limit: the socket's words)
  const w = !code ? null : ST.lang !== "zh" ? (own(API_ERRORS_EN, code) ? API_ERRORS_EN[code] : null)
    : own(API_ERRORS, code) ? API_ERRORS[code] : own(ERRORS.zh, code) ? ERRORS.zh[code] : null;
  if (!w) return message;
  let missing = false;
  const out = w.replace(/\{(\w+)\}/g, (all, k) => {
    if (params && params[k] != null) return String(params[k]);
    missing = true;
    return all;
  });
  if (!missing) return out;
  return ST.lang === "zh" && own(ERRORS.zh, code) ? ERRORS.zh[code] : message;
}

/** A server error code in words (the server's English message is not shown to players). */
export function errorText(code) {
  const table = ERRORS[ST.lang];
  return Object.prototype.hasOwnProperty.call(table, code) ? table[code] : table._other;
}

// The scorer's breakdown lines are bilingual (``开口 opened ×2``, ``seat 1: …``, ``红中杠 7z kong ×3``):
// one language here, seats as winds (the calculator's seats: seat 0 is 东), tile codes as words
// (issue 21: the Chinese calculator showed "红中杠 7z kong ×3 ×8", "seat 0: 开口 opened").
const ZH_PHRASES = [
  ["all three unopened", "三家未开口"], ["pays for everyone", "包三家"], ["each pays", "每家付"],
  ["winner fan", "胡家番"], ["no fan", "无番"], ["below the minimum", "不足"], ["unopened", "未开口"],
  ["pays", "付"], ["base", "底分"],
];
// the scorer's English words the glossary names otherwise (README.md, "The English glossary")
const EN_PHRASES = [["discarder", "deal-in"]];
const MIN_RULES = { zh: { each: "每家", any: "任一家", two_sum: "两家合计" }, en: { each: "each", any: "any", two_sum: "two together" } };
const CJK_WORD = /\s*[^\s\w]*[\u3400-\u9fff][\u3400-\u9fff\w]*[^\s\w]*/g;
const GLOSS = /([\u3400-\u9fff])( [A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z()-]*)*)/g;

export function localizeLine(line, dealer = 0) {
  let s = String(line);
  s = s.replace(/\bseats? (\d(?:, \d)*)/g, (_, list) => list.split(", ").map(x => windOf(+x, dealer)).join("、"));
  s = s.replace(/\b([1-9][mps]|[1-7]z)\b/g, (_, c) => tileName(c));
  s = s.replace(/\((each|any|two_sum)\)/g, (_, r) => `(${MIN_RULES[ST.lang][r]})`);
  if (ST.lang === "en") {
    s = s.replace(/\b(pengpeng|qingyise|fengyise|jiangyise|quanqiuren|gangkai|qianggang|haidi|menqing|qidui)\b/g, (_, b) => bigHandName(b));
    for (const [from, to] of EN_PHRASES) s = s.replace(new RegExp(`\\b${from}\\b`, "g"), to);
    return s.replace(CJK_WORD, " ").replace(/\s{2,}/g, " ").replace(/^\s*[:,]\s*/, "").trim();
  }
  for (const [en, zh] of ZH_PHRASES) s = s.replace(new RegExp(`\\b${en}\\b`, "g"), zh);
  s = s.replace("(half)", "(半)").replace(/(红中杠|发财杠) (中|发)(?![\u3400-\u9fff])/g, "$1");
  return s.replace(GLOSS, "$1").replace(/\b(pengpeng|qingyise|fengyise|jiangyise|quanqiuren|gangkai|qianggang|haidi|menqing|qidui)\b/g, "").replace(/\s{2,}/g, " ").replace(/ :/g, ":").trim();
}
