export TP=8
