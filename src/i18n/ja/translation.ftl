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
