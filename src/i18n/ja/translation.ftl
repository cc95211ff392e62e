## Shinobu — every user-visible string of the web app (Japanese only).
## Ids are grouped by area; a component never holds literal Japanese.

## App
app-name = 偲ぶ
app-title = 偲ぶ — 大切な人を想う終活・追悼サービス
app-skip-to-content = 本文へ移動

## Home
home-heading = 大切な人を、いつまでも偲ぶ場所
home-lead = メモリアルページ、エンディングノート、タイムカプセルの手紙。遺したい想いと、偲びたい想いをひとつの場所に。
home-feature-memory = メモリアルページ
home-feature-memory-text = ご自身、ご家族、ペットの思い出を写真と歩みで残せます。
home-feature-endingnote = エンディングノート
home-feature-endingnote-text = 医療や葬儀の希望、財産、大切な人への言葉を、見せたい人にだけ。
home-feature-timecapsule = タイムカプセル
home-feature-timecapsule-text = 指定した日や、もしものときに届く手紙を書いておけます。
home-login = ログイン
home-register = 新規登録

## Theme
theme-label = 表示テーマ
theme-light = ライト
theme-dark = ダーク
theme-system = 端末の設定に合わせる

## Not found
not-found-heading = ページが見つかりません
not-found-text = お探しのページは移動または削除された可能性があります。
not-found-home = トップページへ戻る

## Errors shown anywhere
error-unexpected = 想定外のエラーが発生しました。時間をおいて再度お試しいただくか、サポートまでお問い合わせください。

## Ending note (sections and fields: src/validation/endingnote.ts)
endingnote-title = エンディングノート
endingnote-of = { $name } さんのエンディングノート
endingnote-member-name = { $lastName } { $firstName }
endingnote-date = { $year }年{ $month }月{ $day }日
endingnote-yes = はい
endingnote-no = いいえ
endingnote-empty = 未記入
endingnote-list-separator = 、
endingnote-exported-at = { $date } に書き出しました
endingnote-self = 自分のこと
endingnote-self-full_name = 氏名
endingnote-self-birthdate = 生年月日
endingnote-self-blood_type = 血液型
endingnote-self-blood_type-a = A型
endingnote-self-blood_type-b = B型
endingnote-self-blood_type-o = O型
endingnote-self-blood_type-ab = AB型
endingnote-self-blood_type-unknown = わからない
endingnote-self-registered_domicile = 本籍地
endingnote-self-family = 家族のこと
endingnote-self-history = これまでの歩み
endingnote-medical = 医療・介護
endingnote-medical-primary_doctor = かかりつけ医
endingnote-medical-conditions = 持病・服用中の薬・アレルギー
endingnote-medical-care_place = 介護を受けたい場所
endingnote-medical-care_place-home = 自宅
endingnote-medical-care_place-facility = 介護施設
endingnote-medical-care_place-hospital = 病院
endingnote-medical-care_place-family_decides = 家族に任せる
endingnote-medical-life_prolonging = 延命治療
endingnote-medical-life_prolonging-wanted = 希望する
endingnote-medical-life_prolonging-not_wanted = 希望しない
endingnote-medical-life_prolonging-family_decides = 家族に任せる
endingnote-medical-organ_donation = 臓器提供
endingnote-medical-organ_donation-yes = 提供する
endingnote-medical-organ_donation-no = 提供しない
endingnote-medical-organ_donation-undecided = まだ決めていない
endingnote-medical-advance_directive = 事前指示書（リビングウィル）を用意しています
endingnote-medical-decision_maker = 判断を任せたい人
endingnote-funeral = 葬儀・お墓
endingnote-funeral-style = 葬儀の形式
endingnote-funeral-style-general = 一般葬
endingnote-funeral-style-family_only = 家族葬
endingnote-funeral-style-one_day = 一日葬
endingnote-funeral-style-direct_cremation = 直葬（火葬式）
endingnote-funeral-style-family_decides = 家族に任せる
endingnote-funeral-religion = 宗教
endingnote-funeral-religion-buddhism = 仏教
endingnote-funeral-religion-shinto = 神道
endingnote-funeral-religion-christianity = キリスト教
endingnote-funeral-religion-none = 無宗教
endingnote-funeral-religion-other = その他
endingnote-funeral-temple = 宗派・菩提寺
endingnote-funeral-invite = 葬儀に呼んでほしい人
endingnote-funeral-invite-family = 家族
endingnote-funeral-invite-relatives = 親族
endingnote-funeral-invite-friends = 友人
endingnote-funeral-invite-colleagues = 職場の方
endingnote-funeral-invite-neighbours = ご近所の方
endingnote-funeral-funeral_home_url = 葬儀社のウェブサイト
endingnote-funeral-grave = お墓
endingnote-funeral-grave-family_grave = 先祖代々のお墓
endingnote-funeral-grave-new_grave = 新しくお墓を建てる
endingnote-funeral-grave-perpetual_memorial = 永代供養
endingnote-funeral-grave-tree_burial = 樹木葬
endingnote-funeral-grave-scattering = 散骨
endingnote-funeral-grave_location = お墓の場所
endingnote-funeral-wishes = 葬儀・お墓についての希望
endingnote-assets = 財産
endingnote-assets-held = お持ちの財産
endingnote-assets-held-deposits = 預貯金
endingnote-assets-held-securities = 有価証券
endingnote-assets-held-insurance = 保険
endingnote-assets-held-pension = 年金
endingnote-assets-held-real_estate = 不動産
endingnote-assets-held-debts = 借入・ローン
endingnote-assets-bank_accounts = 銀行口座（金融機関・支店・口座の種類）
endingnote-assets-securities = 証券口座・株式・投資信託
endingnote-assets-insurance = 生命保険・医療保険（保険会社・証券番号・受取人）
endingnote-assets-pensions = 年金（種類・基礎年金番号）
endingnote-assets-real_estate = 不動産（所在地・名義）
endingnote-assets-debts = 借入・ローン・保証人
endingnote-digital = デジタル資産
endingnote-digital-devices = スマートフォン・パソコン（ロック解除の手がかり）
endingnote-digital-online_accounts = ネット銀行・SNS・メールのアカウント
endingnote-digital-subscriptions = 月額サービス・サブスクリプション
endingnote-digital-password_manager_url = パスワード管理サービス
endingnote-digital-after_death = アカウントの扱い
endingnote-digital-after_death-delete = 削除してほしい
endingnote-digital-after_death-memorialise = 追悼アカウントとして残してほしい
endingnote-digital-after_death-family_decides = 家族に任せる
endingnote-contacts = 大切な人への連絡先
endingnote-contacts-notify_connections = 知らせてほしいつながりの方
endingnote-contacts-others = そのほかの連絡先（お名前・間柄・電話番号）
endingnote-contacts-timing = 知らせる時期
endingnote-contacts-timing-right_away = すぐに知らせてほしい
endingnote-contacts-timing-after_funeral = 葬儀のあとに知らせてほしい
endingnote-pets = ペット
endingnote-pets-names = ペットの名前
endingnote-pets-caretaker = お世話をお願いしたい人
endingnote-pets-care = 食事・散歩・持病などのお世話のこと
endingnote-pets-vet_url = かかりつけの動物病院
endingnote-pets-insured = ペット保険に加入しています
endingnote-message = メッセージ
endingnote-message-to_family = 家族へのメッセージ
endingnote-message-to_friends = 友人へのメッセージ
endingnote-message-written_on = 書いた日
endingnote-visibility = 公開範囲
endingnote-visibility-private = 自分だけ
endingnote-visibility-readers_now = 指定したつながりの方（今から）
endingnote-visibility-readers_after_death = 指定したつながりの方（死亡確認のあと）
endingnote-stale-section = このセクションは別の画面で保存されています。入力した内容はそのまま残っています。内容を確認してから保存し直してください。

## Validation codes (validation-<code>)
validation-invalid_type = 入力の形式が正しくありません。
validation-too_long = 文字数が多すぎます。
validation-invalid_choice = 選択肢から選んでください。
validation-duplicate = 同じものが重複しています。
validation-invalid_date = 正しい日付を入力してください。
validation-invalid_url = http:// または https:// で始まるURLを入力してください。
validation-invalid_user = 選択したユーザーが正しくありません。
validation-too_many = 選択できる人数を超えています。
validation-not_connected = つながりのある方から選んでください。
validation-unknown_field = 入力項目が正しくありません。

## Memorial pages: anniversaries (年忌法要; codes of server/domain/memorial/anniversaries.ts)
anniversary-shonanoka = 初七日
anniversary-shijukunichi = 四十九日
anniversary-isshuki = 一周忌
anniversary-sankaiki = 三回忌
anniversary-nanakaiki = 七回忌
anniversary-jusankaiki = 十三回忌
anniversary-junanakaiki = 十七回忌
anniversary-nijusankaiki = 二十三回忌
anniversary-nijunanakaiki = 二十七回忌
anniversary-sanjusankaiki = 三十三回忌

## Memorial pages: validation codes (src/validation/memorial.ts, server/domain/memorial/images.ts)
validation-date_in_future = 今日より後の日付は入力できません。
validation-death_before_birth = ご命日は生年月日より後の日付を入力してください。
validation-image_name_invalid = 画像をもう一度選んでください。
validation-upload_missing = 画像のアップロードが完了していません。もう一度お試しください。
validation-image_too_large = 画像のサイズが大きすぎます。10MB以下の画像を選んでください。
validation-image_heic_unsupported = HEIC形式の画像は使えません。JPEGまたはPNGで保存した画像を選んでください。
validation-not_an_image = 画像ファイル(JPEG・PNG・WebP・GIF)を選んでください。
validation-image_already_used = この画像はすでに追加されています。
validation-album_order_mismatch = アルバムが更新されています。画面を読み込み直してから並べ替えてください。

## Memorial pages: errors
memorial-error-invalid-invitation = 招待リンクが無効か、有効期限が切れています。招待した方に新しいリンクをお願いしてください。

## Unsaved-changes guard
unsaved-title = 保存されていない変更があります
unsaved-text = このページを離れると、入力した内容は保存されません。ページを離れてもよろしいですか？
unsaved-stay = このページに留まる
unsaved-leave = 保存せずに移動する

## App shell (header, burger menu, footer, tab bar, banner)
header-logo-label = 偲ぶ トップページ
header-menu-label = メインメニュー
header-notifications = お知らせ（未読 { $count } 件）
burger-open = メニューを開く
burger-close = メニューを閉じる
burger-label = メニュー
burger-user-name = { $name } さん
burger-guest = ようこそ、偲ぶへ
burger-group-service = つながりサービス
burger-group-other = その他
menu-login = ログイン
menu-register = 新規登録
menu-dashboard = ホーム
menu-memory = メモリアルページ
menu-endingnote = エンディングノート
menu-timecapsule = タイムカプセル
menu-connection = つながり
menu-user-search = ユーザー検索
menu-mypage = マイページ
menu-notification = お知らせ
menu-media = メディア
menu-ec = オンラインショップ
menu-faq = よくある質問
menu-corporate = 運営会社
menu-terms = 利用規約
menu-privacy = プライバシーポリシー
menu-commercialTransactions = 特定商取引法に基づく表記
menu-confidentialInformation = 機密情報管理規程
menu-feedback = ご意見・ご要望
menu-opens-new-tab = （新しいタブで開きます）
footer-label = ポリシーと運営会社
footer-copyright = © { $year } Shinobu Inc. All rights reserved.
tab-bar-label = タブメニュー
tab-home = ホーム
tab-mourning = 偲ぶ
tab-connection = つながり
tab-notification = お知らせ
banner-label = ログインと新規登録のご案内
route-loading = 読み込んでいます…

## UI kit
badge-unread = 未読 { $count } 件
avatar-alt = { $name } さんのプロフィール画像
avatar-certificated = 本人確認済み
avatar-uncertificated = 本人確認未完了
elapsed-seconds = { $count }秒前
elapsed-minutes = { $count }分前
elapsed-hours = { $count }時間前
elapsed-days = { $count }日前
modal-close = 閉じる

## Screens not built yet
coming-soon-text = この機能は現在準備中です。公開まで今しばらくお待ちください。
screen-dashboard = ホーム
screen-mourning = 偲ぶ
screen-memory-mourning = 追悼ページ
screen-memory-top = わたしのメモリアルページ
screen-memory = メモリアルページ
screen-endingnote = エンディングノート
screen-timecapsule = タイムカプセル
screen-timecapsule-list = タイムカプセル一覧
screen-connection = つながり
screen-user-search = ユーザー検索
screen-mypage = マイページ
screen-notification = お知らせ
screen-death-confirmation = ご逝去の確認
screen-identity-verification = 本人確認

## Ending note screen
endingnote-loading = エンディングノートを読み込んでいます…
endingnote-not-found = このエンディングノートは表示できません。
endingnote-load-failed = エンディングノートを読み込めませんでした。時間をおいて再度お試しください。
endingnote-lead = 書けるところから、少しずつ書き進めてください。セクションごとに保存し、見せる相手を選べます。
endingnote-sections = セクション
endingnote-completion = { $filled } / { $total } 項目
endingnote-completion-label = 記入済み { $filled } / { $total } 項目
endingnote-never-saved = まだ保存されていません
endingnote-updated-at = 最終保存：{ $date }
endingnote-choose = 選択してください
endingnote-choose-none = 選ばない
endingnote-no-connections = つながりのある方がまだいません。つながりを作ると選べるようになります。
endingnote-save = このセクションを保存する
endingnote-saving = 保存しています…
endingnote-saved = 保存しました。
endingnote-save-failed = 保存できませんでした。通信環境を確認して、もう一度お試しください。入力した内容はそのまま残っています。
endingnote-invalid = 入力内容を確認してください。
endingnote-stale-overwrite = 入力した内容で上書き保存する
endingnote-stale-reload = 保存されている内容を表示する
endingnote-visibility-saved = 公開範囲を変更しました。
endingnote-readers = このノートを見られる人
endingnote-readers-text = つながりのある方から選んでください。各セクションの公開範囲で「指定したつながりの方」を選ぶと、その方が読めるようになります。
endingnote-readers-field = 見られる人
endingnote-readers-save = 見られる人を保存する
endingnote-readers-saved = 見られる人を保存しました。
endingnote-export = 書き出し・印刷
endingnote-export-text = 印刷用に表示すると、ブラウザの印刷機能で印刷やPDFでの保存ができます。ノート全体をファイルとして保存することもできます。
endingnote-export-json = データとして保存する（JSON）
endingnote-export-html = 印刷用に保存する（HTML）
endingnote-print = 印刷用に表示する
endingnote-reader-lead = { $name } さんがあなたに公開しているセクションです。

## Login
login-title = ログイン
login-lead = 登録したメールアドレスとパスワードでログインしてください。
login-email = メールアドレス
login-password = パスワード
login-show-password = パスワードを表示する
login-submit = ログインする
login-submitting = ログインしています…
login-required = メールアドレスとパスワードはどちらも必須です。
login-error-invalid_credentials = ログインに失敗しました。正しいEメールとパスワードの組み合わせでログインしてください
login-error-too_many_attempts = ログイン試行回数が上限に達しました。しばらく時間をおいてから再度お試しください。
login-error-account_locked = アカウントがロックされています。パスワードリセットを行うか、しばらく時間をおいてから再度お試しください。
login-error-external = ログインに失敗しました。 通常ログインをお試しください。
login-forgot-password = パスワードをお忘れの方はこちら
login-no-account = アカウントをお持ちでない方
login-register = 新規登録はこちら
login-social-heading = ほかのサービスでログイン
login-with = { $provider }でログイン
provider-line = LINE
provider-google = Google
provider-facebook = Facebook
provider-twitter = X（旧Twitter）
logout = ログアウト
logout-question = ログアウトしますか？ 次回はメールアドレスとパスワードでログインしてください。
logout-done = ログアウトしました。

## Registration
register-title = 新規登録
register-lead = 偲ぶをはじめるために、あなたについて教えてください。入力いただいたメールアドレスに、登録を完了するためのご案内をお送りします。
register-lead-pet = ペットのメモリアルページを管理するために、まずあなたのアカウントを作成します。
register-lead-other-admin = 大切な方のメモリアルページを管理するために、まずあなたのアカウントを作成します。
register-lead-external = { $provider } の情報を使って登録します。足りない項目を入力してください。
register-have-account = すでにアカウントをお持ちの方
register-login = ログインはこちら
register-username = ニックネーム
register-username-hint = ほかの方に表示されるお名前です。
register-email = メールアドレス
register-password = パスワード
register-password-hint = 8文字以上で入力してください。長い文章のようなパスワードもお使いいただけます。
register-last-name = 姓
register-first-name = 名
register-last-name-kana = せい（ひらがな）
register-first-name-kana = めい（ひらがな）
register-address = お住まいの都道府県
register-address-none = 選択してください
register-birthdate = 生年月日
register-sex = 性別
register-sex-1 = 男性
register-sex-2 = 女性
register-sex-3 = その他
register-sex-9 = 回答しない
register-to-confirm = 入力内容を確認する
register-confirm-title = 入力内容の確認
register-confirm-lead = 以下の内容で登録します。よろしければ「登録する」を押してください。
register-password-masked = （表示しません）
register-back = 入力画面に戻る
register-submit = 登録する
register-submitting = 登録しています…
register-invalid = 入力内容を確認してください。
register-failed = ユーザー登録に失敗しました。
register-inflow-invalid = URLをご確認ください。
register-mail-sent-title = メールをお送りしました
register-mail-sent-text = { $email } 宛に、登録を完了するためのメールをお送りしました。メールに記載のリンクを24時間以内に開いて、登録を完了してください。
register-mail-sent-note = メールが届かない場合は、迷惑メールフォルダをご確認いただくか、メールアドレスを確かめてもう一度ご登録ください。
register-to-top = トップページへ

## Account activation
activate-title = 登録の完了
activate-working = 登録を完了しています…
activate-failed = ユーザーアクティベーションに失敗しました。
activate-failed-hint = リンクの有効期限（24時間）が切れているか、すでに使われている可能性があります。もう一度ご登録いただくか、ログインをお試しください。
activate-done = 登録が完了しました。
activate-sign-in = 続けてパスワードを入力し、ログインしてください。
activate-sign-in-social = LINEなどほかのサービスの情報で登録した方は、そのサービスでログインしてください。
activate-email = メールアドレス：{ $email }
activate-missing-link = URLをご確認ください。

## Password reset
password-reset-title = パスワードの再設定
password-reset-request-lead = ご登録のメールアドレスを入力してください。パスワードを再設定するためのリンクをお送りします。
password-reset-email = メールアドレス
password-reset-send = 再設定のメールを送る
password-reset-sending = 送信しています…
password-reset-sent = メールアドレスが登録されている場合は、パスワード再設定のご案内をお送りしました。リンクの有効期限は1時間です。
password-reset-new-lead = 新しいパスワードを入力してください。再設定すると、ほかの端末からはログアウトされます。
password-reset-new-password = 新しいパスワード
password-reset-save = パスワードを再設定する
password-reset-saving = 再設定しています…
password-reset-done = パスワードを再設定しました。新しいパスワードでログインしてください。
password-reset-invalid = このリンクは使えません。有効期限（1時間）が切れているか、すでに使われています。もう一度お手続きください。
password-reset-to-login = ログイン画面へ
password-reset-request-again = もう一度再設定のメールを送る

## Account deletion
account-delete-failed = 解約に失敗しました。

## Validation codes of accounts (src/validation/account.ts)
validation-required = 入力してください。
validation-email_invalid = メールアドレスの形式が正しくありません。
validation-password_too_short = パスワードは8文字以上で入力してください。
validation-password_too_common = よく使われていて推測されやすいパスワードです。別のパスワードにしてください。
validation-password_too_long = パスワードが長すぎます。128文字以内で入力してください。
validation-kana_hiragana_only = ひらがなで入力してください。
validation-prefecture_invalid = 都道府県を選んでください。
validation-birthdate_invalid = 正しい日付を入力してください。
validation-birthdate_in_future = 今日より後の日付は入力できません。
validation-sex_code_invalid = 性別を選んでください。

## Social: connections, user search, notifications (docs/social.md)

relationship-family = 家族
relationship-relative = 親族
relationship-friend = 友人
relationship-acquaintance = 知人
relationship-other = その他
connection-title = つながり
connection-received-heading = 届いたつながり申請
connection-sent-heading = 送ったつながり申請
connection-list-heading = つながっている方
connection-empty = まだつながりがありません。ユーザー検索から、お知り合いを探してみましょう。
connection-search-link = ユーザー検索へ
connection-requests-empty = 申請はありません。
connection-relationship-label = { $name } さんとの関係
connection-their-relationship = 相手から見た関係:{ $relationship }
connection-requested-as = 申請時の関係:{ $relationship }
connection-accept = 承認する
connection-decline = お断りする
connection-cancel = 申請を取り消す
connection-remove = つながりを解除する
connection-remove-confirm = { $name } さんとのつながりを解除しますか。
connection-remove-keep = 解除しない
connection-load-error = 読み込めませんでした。時間をおいてもう一度お試しください。
connection-action-error = 処理できませんでした。時間をおいてもう一度お試しください。
user-search-title = ユーザー検索
user-search-label = お名前(漢字・ふりがな)
user-search-hint = 名前の一部でも探せます。ひらがな・カタカナ・漢字のどれでも構いません。
user-search-submit = 検索する
user-search-empty = 該当する方が見つかりませんでした。
user-search-more = さらに表示する
user-search-relationship-label = { $name } さんとの関係
user-search-send = つながり申請を送る
user-search-state-request_sent = 申請中です
user-search-state-request_received = つながり申請が届いています
user-search-state-connected = つながっています
user-search-requested = つながり申請を送りました。
user-search-connected-now = つながりました。
notification-title = お知らせ
notification-empty = お知らせはまだありません。
notification-mark-all = すべて既読にする
notification-mark-read = 既読にする
notification-unread = 未読
notification-more = さらに表示する
notification-kind-connection_requested = { $fromName } さんからつながり申請が届きました。
notification-kind-connection_accepted = { $name } さんがつながり申請を承認しました。
notification-kind-admin_added = 「{ $pageName }」の管理者になりました。
notification-kind-condolence_posted = 「{ $pageName }」に記帳がありました。
notification-kind-letter_delivered = { $senderName } さんから手紙「{ $title }」が届きました。
notification-kind-anniversary_coming = 「{ $pageName }」の法要の日({ $date })が近づいています。
notification-kind-death_suspected = { $name } さんについて、ご逝去の可能性があるとのお知らせがありました。
notification-kind-death_confirmed = { $name } さんのご逝去が確認されました。
notification-kind-unknown = 新しいお知らせがあります。
validation-connection_to_self = ご自身にはつながり申請を送れません。
validation-relationship_invalid = 関係を選んでください。
validation-cursor_invalid = もう一度検索してください。
validation-icon_name_invalid = 画像をもう一度選んでください。
validation-boolean_invalid = 選択肢から選んでください。
