import AUCore
